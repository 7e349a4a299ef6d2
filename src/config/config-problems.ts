import type { z } from 'zod';

/**
 * One line per problem a schema found, each naming where it is
 * (`collections.albums.autopilot.minGain: Too big: …`, `collections.albums: unknown key "autopliot"`):
 * an operator reads what to fix without a stack trace or zod's multi-line layout.
 */
export function schemaProblems(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${where}unknown key "${key}"`);
    return [`${where}${issue.message.replaceAll('\n', ' ')}`];
  });
}
