// `npm run schema`: writes schema/*.schema.json from the zod models (src/model/). Run after a
// build; it lives here, not in src/model/, so the model layer does no I/O.
import { mkdir, writeFile } from 'node:fs/promises';
import { renderSchemas } from '../dist/model/schemas.js';
import { renderWebhooksSchema } from '../dist/model/webhooks.js';

const dir = new URL('../schema/', import.meta.url);
await mkdir(dir, { recursive: true });
for (const { file, text } of [...renderSchemas(), renderWebhooksSchema()]) {
  await writeFile(new URL(file, dir), text);
  console.log(`wrote schema/${file}`);
}
