/**
 * An environment's state (docs/environments.md#state): its stamp and applied content written one
 * lesson a line and read back as they were; and the pure check that refuses a state of another
 * environment (src/state/check-environment.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseStateText } from '../../src/state/state-file.js';
import { serializeState } from '../../src/state/serialize-state.js';
import { emptyState, nullRecord } from '../../src/model/state/schema.js';
import { checkStateEnvironment } from '../../src/state/check-environment.js';
import { desiredOf, LINEAGE } from '../plan/build-course.js';

function stamped() {
  const state = emptyState(LINEAGE, 'https://staging.example/api/v1');
  state.environment = 'staging';
  state.program_ids = ['stg_intro'];
  state.content = { digest: 'a'.repeat(64), commit: 'c'.repeat(40), lessons: nullRecord({ welcome: '0123456789abcdef', tables: 'fedcba9876543210' }) };
  return state;
}

describe('an environment\'s state file', () => {
  it('round-trips its stamp and content, one lesson of the content a line', () => {
    const text = serializeState(stamped());
    expect(text).toContain('\n      "tables": "fedcba9876543210",\n      "welcome": "0123456789abcdef"\n');
    expect(text).toContain('"environment": "staging"');
    const back = parseStateText(text, 'state.json');
    expect(back.environment).toBe('staging');
    expect(back.program_ids).toEqual(['stg_intro']);
    expect({ ...back.content!.lessons }).toEqual({ welcome: '0123456789abcdef', tables: 'fedcba9876543210' });
    expect(serializeState(back)).toBe(text);
  });
});

describe('checkStateEnvironment', () => {
  const desired = { ...desiredOf({ prd_intro: { prd_a: ['welcome'] } }), environment: 'production' };
  desired.programs[0]!.ids = { staging: 'stg_intro', production: 'prd_intro' };

  it('accepts its own state, a new one, and an unstamped one of a repo without environments', () => {
    expect(() => checkStateEnvironment(stamped(), 'f', 'staging')).not.toThrow();
    expect(() => checkStateEnvironment(emptyState(LINEAGE), 'f', 'production', desired)).not.toThrow();
    expect(() => checkStateEnvironment(emptyState(LINEAGE, 'https://school.example/api/v1'), 'f', undefined)).not.toThrow();
  });

  it('refuses another environment\'s stamp, a stamp without environments, an applied state without one, another environment\'s program', () => {
    expect(() => checkStateEnvironment(stamped(), 'f', 'production')).toThrow('the state file f belongs to the environment staging, not to production');
    expect(() => checkStateEnvironment(stamped(), 'f', undefined)).toThrow('belongs to the environment staging, but this repo declares no environments');
    expect(() => checkStateEnvironment(emptyState(LINEAGE, 'https://school.example/api/v1'), 'f', 'production')).toThrow('has no environment stamp');
    const copied = { ...stamped(), environment: 'production' };
    expect(() => checkStateEnvironment(copied, 'f', 'production', desired)).toThrow("records the program stg_intro, which is prd_intro's program in the environment staging");
  });
});
