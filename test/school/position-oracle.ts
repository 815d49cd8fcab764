/**
 * An independent model of the school's lesson positions, written from the school's rules
 * (docs/school-api.md#lesson-input-fields, docs/architecture.md#plan) and deliberately sharing
 * no code with src/school-api/positions.ts, which both the planner and the emulator use. Tests
 * replay the requests an apply sent through it and compare with the school: if the shared code
 * got a rule wrong, the planner and the emulator would agree with each other, but not with this.
 *
 * The rules, as the school states them:
 * - lessons of a section sit at whole positions from 1 up, and gaps may exist;
 * - a create without a position (or with 0) goes last: one past the highest position, 1 when
 *   the section is empty; an update with position 0 goes last too;
 * - a lesson put at position p that another lesson holds pushes that lesson and every one
 *   after it down by one; at a free position nothing else moves;
 * - a lesson leaving a section (for another section or another position) leaves a gap behind;
 * - an update moving to another section without a position goes last there; without a
 *   position and without a new section the lesson stays where it is.
 */

interface Seat {
  lesson: string;
  section: string;
  position: number;
}

export class PositionOracle {
  private seats: Seat[] = [];

  /** Start from lessons already in the school. */
  constructor(initial: Iterable<Seat> = []) {
    for (const s of initial) this.seats.push({ ...s });
  }

  private inSection(section: string, except?: string): Seat[] {
    return this.seats.filter((s) => s.section === section && s.lesson !== except);
  }

  private endOf(section: string, except?: string): number {
    const taken = this.inSection(section, except).map((s) => s.position);
    return taken.length === 0 ? 1 : Math.max(...taken) + 1;
  }

  private seat(lesson: string, section: string, position: number): number {
    // Leave the old seat first: it becomes a gap.
    this.seats = this.seats.filter((s) => s.lesson !== lesson);
    const others = this.inSection(section);
    if (others.some((s) => s.position === position)) {
      for (const s of others) if (s.position >= position) s.position += 1;
    }
    this.seats.push({ lesson, section, position });
    return position;
  }

  /** POST /lessons. Returns the new lesson's position. */
  create(lesson: string, request: { section_id: string; position?: number | null }): number {
    const p = request.position;
    return this.seat(lesson, request.section_id, p === undefined || p === null || p === 0 ? this.endOf(request.section_id) : p);
  }

  /** PATCH /lessons/{id}. Returns the lesson's position after it. */
  update(lesson: string, request: { section_id?: string; position?: number }): number {
    const now = this.seats.find((s) => s.lesson === lesson);
    if (!now) throw new Error(`oracle: no lesson ${lesson}`);
    const section = request.section_id ?? now.section;
    const p = request.position;
    if (p === undefined) {
      if (section === now.section) return now.position;
      return this.seat(lesson, section, this.endOf(section));
    }
    return this.seat(lesson, section, p === 0 ? this.endOf(section, lesson) : p);
  }

  /** Lesson → { section, position }. */
  where(): Map<string, { section: string; position: number }> {
    return new Map(this.seats.map((s) => [s.lesson, { section: s.section, position: s.position }]));
  }
}
