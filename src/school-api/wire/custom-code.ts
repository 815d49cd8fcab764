/** Wire schema of the school's custom code (docs/school-api.md#custom-code GET /custom_code). */
import { z } from 'zod';

export const CustomCodeSchema = z.object({ custom_code_head: z.string(), custom_code_body: z.string() });
export type CustomCode = z.output<typeof CustomCodeSchema>;
