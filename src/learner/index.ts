/** The learner's view (PURE): unlock days, visibility and progression locks of every lesson. */
export * from './learner-model.js';
export * from './from-desired.js';
