import { demoConfig } from '../support/service';

/** The demo config with `profiles`, a collection whose entities are kept in parts. */
export function partsConfig(): unknown {
  const config = demoConfig() as { collections: Record<string, unknown> };
  config.collections.profiles = {
    field: 'name',
    strategy: { kind: 'hash', shards: 4 },
    parts: { contact: ['email', 'phone'], profile: ['bio', 'history'], cart: ['cart'] },
  };
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
