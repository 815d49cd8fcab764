/** `npm run schema`: write schema/*.schema.json from the zod models (the only I/O in model/). */
import { mkdir, writeFile } from 'node:fs/promises';
import { renderSchemas } from './schemas.js';
import { renderWebhooksSchema } from './webhooks.js';

const dir = new URL('../../schema/', import.meta.url);
await mkdir(dir, { recursive: true });
for (const { file, text } of [...renderSchemas(), renderWebhooksSchema()]) {
  await writeFile(new URL(file, dir), text);
  console.log(`wrote schema/${file}`);
}
