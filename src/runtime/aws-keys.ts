import type { Settings } from './settings';

/** Keys for the SDK, as the environment gives them. */
export interface AwsKeys {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** One key for every runtime on an engine that takes any: DynamoDB Local keeps a database per access key. */
export const ANY_ENGINE_KEYS: AwsKeys = { accessKeyId: 'shardline', secretAccessKey: 'shardline' };

/**
 * The keys a runtime hands the SDK: those given; else ANY_ENGINE_KEYS for an endpoint, and none for AWS itself,
 * where the SDK's own chain finds them (a Lambda's role) — except where `required`: on Workers it finds nothing.
 */
export function clientKeys(settings: Settings, required = false): AwsKeys | undefined {
  if (settings.awsKeys) return settings.awsKeys;
  if (settings.endpoint) return ANY_ENGINE_KEYS;
  if (required) {
    throw new Error(
      'set the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY secrets (or DYNAMODB_ENDPOINT for a local engine)',
    );
  }
  return undefined;
}
