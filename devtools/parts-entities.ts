/** Collections and entities of the parts tests and bench (docs/api.md, "Entities in parts"). */

/** The parts of `profiles`: the e-mail and phone apart, the large profile apart, the cart apart. */
export const PROFILE_PARTS = { contact: ['email', 'phone'], profile: ['bio', 'history'], cart: ['cart'] };

/** `config` (the demo config) with `profiles` in parts and `profiles-whole`, the same entities as one item. */
export function withProfileCollections(config: unknown): unknown {
  const { collections } = config as { collections: Record<string, unknown> };
  const strategy = { kind: 'hash', shards: 4 };
  collections.profiles = { field: 'name', strategy, parts: PROFILE_PARTS };
  collections['profiles-whole'] = { field: 'name', strategy };
  return config;
}

/** A profile of about `kb` KB, nearly all of it in the `profile` part. */
export function profile(id: string, kb: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pk: id,
    sk: 'profile',
    name: `Name ${id}`,
    email: `${id}@example.com`,
    phone: '+33 1 23 45 67 89',
    bio: 'b'.repeat(Math.max(0, kb * 1024 - 300)),
    ...extra,
  };
}
