/**
 * The school's position model (docs/architecture.md#plan), in one place. The emulator stores positions with it
 * and the planner simulates plans with it, so the two cannot disagree.
 *
 * - A section holds lessons at integer positions >= 1, possibly with gaps.
 * - Placing a lesson at p: the lesson leaves its old slot (a gap); if another lesson holds p,
 *   every lesson at p or later moves down by one; then the lesson takes p.
 * - "last" is the highest position + 1 (1 in an empty section).
 * - A lesson leaving a section leaves a gap; nothing is renumbered.
 */

export { MAX_POSITION } from './school-rules.js';

/** Lesson id → position, for one section. Mutated in place: sections can be large. */
export type SectionSlots = Map<string, number>;

/** Where a request puts a lesson: a position, the end of the section, or where it already is. */
export type Placement = { at: number } | 'last' | 'keep';

/** The request-level rule of the API for `position`, turned into a Placement. */
export function placementOf(request: {
  kind: 'create' | 'update';
  /** `undefined` when the field was omitted. Null on update is rejected before this point. */
  position: number | null | undefined;
  /** Update only: the request moves the lesson to another section. */
  sectionChanged?: boolean;
}): Placement {
  const { kind, position } = request;
  if (position === undefined || position === null) {
    if (kind === 'create' || request.sectionChanged) return 'last';
    return 'keep';
  }
  if (position === 0) return 'last';
  return { at: position };
}

/** Highest position + 1, or 1 for an empty section. */
export function lastPosition(slots: SectionSlots, ignoring?: string): number {
  let max = 0;
  for (const [id, p] of slots) if (id !== ignoring && p > max) max = p;
  return max + 1;
}

/**
 * Put `lessonId` into the section per `placement` and return its position. The lesson may
 * already be in the section (a move within it) or not (a create, or arrival from elsewhere).
 */
export function place(slots: SectionSlots, lessonId: string, placement: Placement): number {
  const current = slots.get(lessonId);
  if (placement === 'keep') {
    if (current !== undefined) return current;
    placement = 'last';
  }
  const target = placement === 'last' ? lastPosition(slots, lessonId) : placement.at;
  if (current === target) return target;
  slots.delete(lessonId);
  let occupied = false;
  for (const p of slots.values()) {
    if (p === target) {
      occupied = true;
      break;
    }
  }
  if (occupied) {
    for (const [id, p] of slots) if (p >= target) slots.set(id, p + 1);
  }
  slots.set(lessonId, target);
  return target;
}

/** Take a lesson out of its section, leaving a gap. */
export function removeFromSection(slots: SectionSlots, lessonId: string): void {
  slots.delete(lessonId);
}

/** Lesson ids in position order. */
export function orderOf(slots: SectionSlots): string[] {
  return [...slots.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}
