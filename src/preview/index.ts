/** `coursesync preview`: the course as a learner will see it, served locally with live reload. */
export * from './preview-server.js';
export * from './render-page.js';
export * from './video-player.js';
