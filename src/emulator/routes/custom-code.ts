/** GET /custom_code (docs/school-api.md#custom-code): the school's custom head and body code. */
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';

function getCustomCode(ctx: RouteContext): RouteResult {
  return ok({ ...ctx.store.customCode });
}

export const customCodeRoutes: Route[] = [route('GET', '/custom_code', getCustomCode)];
