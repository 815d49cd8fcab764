/**
 * A whole-school simulation of positions, built on the shared position model
 * (src/school-api/positions.ts): which section each lesson is in and at which position. The planner
 * predicts with it and simulatePlan replays a plan with it.
 */
import { place, removeFromSection, type Placement, type SectionSlots } from '../school-api/positions.js';

export class SchoolSlots {
  private readonly sections = new Map<string, SectionSlots>();
  private readonly where = new Map<string, string>();

  /** Put a lesson where the state says it is (no shifting: the state is a snapshot). */
  seed(lesson: string, sectionId: string, position: number): void {
    this.slotsOf(sectionId).set(lesson, position);
    this.where.set(lesson, sectionId);
  }

  slotsOf(sectionId: string): SectionSlots {
    let s = this.sections.get(sectionId);
    if (!s) {
      s = new Map();
      this.sections.set(sectionId, s);
    }
    return s;
  }

  positionOf(lesson: string): number | undefined {
    const section = this.where.get(lesson);
    return section === undefined ? undefined : this.sections.get(section)?.get(lesson);
  }

  sectionOf(lesson: string): string | undefined {
    return this.where.get(lesson);
  }

  /** Place a lesson in a section (leaving a gap where it was) and return its new position. */
  moveTo(lesson: string, sectionId: string, placement: Placement): number {
    const from = this.where.get(lesson);
    if (from !== undefined && from !== sectionId) {
      removeFromSection(this.slotsOf(from), lesson);
      if (placement === 'keep') placement = 'last';
    }
    this.where.set(lesson, sectionId);
    return place(this.slotsOf(sectionId), lesson, placement);
  }

  /** Rename a lesson in the simulation (a step names a lesson by its new key). */
  rename(from: string, to: string): void {
    if (from === to) return;
    const section = this.where.get(from);
    if (section === undefined) return;
    const slots = this.slotsOf(section);
    const p = slots.get(from)!;
    slots.delete(from);
    slots.set(to, p);
    this.where.delete(from);
    this.where.set(to, section);
  }

  /** Every section's lessons in position order, with positions. */
  snapshot(): Map<string, Array<{ lesson: string; position: number }>> {
    const out = new Map<string, Array<{ lesson: string; position: number }>>();
    for (const [id, slots] of this.sections) {
      out.set(
        id,
        [...slots.entries()].sort((a, b) => a[1] - b[1]).map(([lesson, position]) => ({ lesson, position })),
      );
    }
    return out;
  }
}
