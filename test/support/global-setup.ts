import type { TestProject } from 'vitest/node';
import { startEmbeddedEngine } from '../../src/runtime/embedded-engine';
import { startDynamoDbLocal } from '../../devtools/dynamodb-local';

export interface EngineEndpoints {
  /** AWS DynamoDB Local 1.25 (the official jar), in memory. */
  dynamodbLocal: string;
  /** dynalite, in memory — the engine `npm start` embeds. */
  dynalite: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    engines: EngineEndpoints;
  }
}

/** Starts both real engines once for the whole run; every test file makes its own tables. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [local, dynalite] = await Promise.all([startDynamoDbLocal(), startEmbeddedEngine(undefined)]);
  project.provide('engines', { dynamodbLocal: local.endpoint, dynalite: dynalite.endpoint });
  return async () => {
    await Promise.all([local.stop(), dynalite.close()]);
  };
}
