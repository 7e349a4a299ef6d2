import type { z } from 'zod';

/** One line per problem a schema found, naming where (`collections.albums: unknown key "autopliot"`). */
export function schemaProblems(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${where}unknown key "${key}"`);
    return [`${where}${issue.message.replaceAll('\n', ' ')}`];
  });
}
