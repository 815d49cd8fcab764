/**
 * The default school: what `examples/` syncs to and what tests start from when they pass no
 * seed. The ids here are a contract other tests rely on; change them only with those tests.
 */
import type { SeedInput } from './seed.js';

export const DEFAULT_SEED: SeedInput = {
  api_keys: [
    { token: 'demo-token', programs: 'all' },
    // A key that may edit only the partner program: for 403 tests on the demo programs.
    { token: 'partner-token', programs: ['prog_partner'] },
  ],
  programs: [
    {
      id: 'prog_intro',
      name: 'Intro to TypeScript',
      description: 'A first course in TypeScript.',
      section_groups: [
        { id: 'grp_basics', name: 'Basics', position: 1 },
        { id: 'grp_next', name: 'Going further', position: 2 },
      ],
      sections: [
        { id: 'sec_start', name: 'Getting started', section_group_id: 'grp_basics', position: 1 },
        { id: 'sec_types', name: 'Types', section_group_id: 'grp_basics', position: 2 },
        { id: 'sec_tooling', name: 'Tooling', section_group_id: 'grp_next', position: 1 },
      ],
      member_ids: ['mem_1', 'mem_2'],
    },
    {
      id: 'prog_advanced',
      name: 'Advanced TypeScript',
      section_groups: [{ id: 'grp_adv', name: 'Advanced', position: 1 }],
      sections: [
        { id: 'sec_generics', name: 'Generics', section_group_id: 'grp_adv', position: 1 },
        { id: 'sec_patterns', name: 'Patterns', section_group_id: 'grp_adv', position: 2 },
        { id: 'sec_archive', name: 'Archive', section_group_id: 'grp_adv', position: 3 },
      ],
      member_ids: ['mem_1'],
    },
    {
      id: 'prog_partner',
      name: 'Partner course',
      section_groups: [{ id: 'grp_partner', name: 'Partner', position: 1 }],
      sections: [{ id: 'sec_partner', name: 'Partner section', section_group_id: 'grp_partner', position: 1 }],
      member_ids: ['mem_3'],
    },
  ],
  members: [
    { id: 'mem_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    { id: 'mem_2', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
    { id: 'mem_3', email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' },
    { id: 'mem_4', email: 'katherine@example.com', first_name: 'Katherine', last_name: 'Johnson' },
    { id: 'mem_5', email: 'edsger@example.com', first_name: 'Edsger', last_name: 'Dijkstra' },
  ],
  offers: [
    {
      id: 'off_pro',
      name: 'Pro',
      description: 'Every course, forever.',
      prices: [{ id: 'pri_pro', amount: 4900, currency: 'EUR' }],
      member_ids: ['mem_1', 'mem_2'],
    },
    {
      id: 'off_monthly',
      name: 'Monthly',
      prices: [
        { id: 'pri_monthly', amount: 900, currency: 'EUR', price_type: 'subscription', recurring_interval: 'month', recurring_interval_count: 1 },
      ],
      member_ids: ['mem_2', 'mem_3'],
    },
  ],
  badges: [
    { id: 'bdg_finisher', name: 'Finisher' },
    { id: 'bdg_helper', name: 'Helper' },
  ],
  custom_code: {
    custom_code_head: '<meta name="school" content="demo">',
    custom_code_body: '<div id="coursesync-demo-footer"></div>',
  },
};
