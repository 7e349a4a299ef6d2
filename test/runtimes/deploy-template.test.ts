import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config';
import { TTL_ATTRIBUTE } from '../../src/core/collection';
import { parse, type CollectionTag, type ScalarTag, type YAMLSeq } from 'yaml';
import { ROOT } from './support/runtimes';

// CloudFormation's short forms (!Ref, !GetAtt, !Sub) as plain { Fn: value } objects.
const shortForms: (ScalarTag | CollectionTag)[] = [
  ...['Ref', 'GetAtt', 'Sub'].map(
    (name): ScalarTag => ({ tag: `!${name}`, resolve: (value: string) => ({ [name]: value }) }),
  ),
  { tag: '!Equals', collection: 'seq', resolve: (seq) => ({ Equals: (seq as YAMLSeq).toJSON() }) } as CollectionTag,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Template = any;
const TEMPLATE = resolve(ROOT, 'deploy/template.yaml');
const template: Template = parse(readFileSync(TEMPLATE, 'utf8'), { customTags: shortForms });
const config = JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8'));
const hasCfnLint = spawnSync('cfn-lint', ['--version']).status === 0;

describe('deploy/template.yaml (AWS SAM)', () => {
  it('creates the table the bundled config describes: pk/sk, both sharded GSIs with projection ALL', () => {
    const table = template.Resources.Table.Properties;
    const { partitionKey, sortKey } = config.table;
    const [collection] = resolveConfig(config, {
      readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
    });
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.KeySchema).toEqual([
      { AttributeName: partitionKey.name, KeyType: 'HASH' },
      { AttributeName: sortKey.name, KeyType: 'RANGE' },
    ]);
    // The two indexes shard maps take turns in (docs/resharding.md).
    expect(table.GlobalSecondaryIndexes).toEqual(
      collection!.indexes.map(({ name, shardKeyAttribute, indexKeyAttribute }) => ({
        IndexName: name,
        KeySchema: [
          { AttributeName: shardKeyAttribute, KeyType: 'HASH' },
          { AttributeName: indexKeyAttribute, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    const types = Object.fromEntries(
      table.AttributeDefinitions.map((a: Template) => [a.AttributeName, a.AttributeType]),
    );
    expect(types).toEqual({
      [partitionKey.name]: 'S',
      [sortKey.name]: 'S',
      ...Object.fromEntries(
        collection!.indexes.flatMap((index) => [
          [index.shardKeyAttribute, 'S'],
          [index.indexKeyAttribute, 'S'],
        ]),
      ),
    });
  });

  it('runs the bundle `npm run build` writes, behind a Function URL, on the table it creates', () => {
    const fn = template.Resources.ShardlineFunction.Properties;
    expect(resolve(ROOT, 'deploy', fn.CodeUri)).toBe(resolve(ROOT, 'dist/lambda'));
    expect(fn.Handler).toBe('index.handler'); // dist/lambda/index.mjs exports handler
    expect(fn.FunctionUrlConfig.AuthType).toEqual({ Ref: 'FunctionUrlAuthType' });
    expect(fn.Environment.Variables).toMatchObject({ TABLE_NAME: { Ref: 'Table' }, SHARDLINE_CREATE_TABLE: 'false' });
    expect(fn.Environment.Variables.DYNAMODB_ENDPOINT).toBeUndefined();
    const statement = fn.Policies[0].Statement[0];
    expect(statement.Action).toEqual(
      // BatchGetItem reads the shard-map pointers; PutItem and GetItem also write and read map versions.
      expect.arrayContaining([
        'dynamodb:DescribeTable',
        'dynamodb:Query',
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
      ]),
    );
    // Only the calls shardline makes: batches send one conditional call per item, never a BatchWriteItem.
    expect(statement.Action).not.toContain('dynamodb:BatchWriteItem');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's !Sub syntax, not a JavaScript template
    expect(statement.Resource).toEqual([{ GetAtt: 'Table.Arn' }, { Sub: '${Table.Arn}/index/*' }]);
    expect(fn.Timeout * 1000).toBeGreaterThan(Number(template.Parameters.RequestTimeoutMs.MaxValue));
  });

  it("wires the table's stream to the same handler: batch item failures, bisection, a failure queue", () => {
    expect(template.Resources.Table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const fn = template.Resources.ShardlineFunction.Properties;
    const source = fn.Events.TableChanges;
    expect(source.Type).toBe('DynamoDB');
    expect(source.Properties).toMatchObject({
      Stream: { GetAtt: 'Table.StreamArn' },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Type: 'SQS', Destination: { GetAtt: 'StreamFailures.Arn' } } },
    });
    expect(source.Properties.BatchSize).toBeGreaterThan(0);
    expect(template.Resources.StreamFailures.Type).toBe('AWS::SQS::Queue');
    const actions = fn.Policies[0].Statement.flatMap((statement: Template) => statement.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:GetRecords', 'sqs:SendMessage']));
  });

  it('runs an autopilot step a minute on the same bundle, with time for a reshard, and expires load records', () => {
    const fn = template.Resources.AutopilotFunction.Properties;
    const api = template.Resources.ShardlineFunction.Properties;
    expect([fn.CodeUri, fn.Handler, fn.Runtime]).toEqual([api.CodeUri, api.Handler, api.Runtime]);
    expect(fn.Events.AutopilotSchedule).toEqual({
      Type: 'Schedule',
      Properties: expect.objectContaining({ Schedule: 'rate(1 minute)' }),
    });
    expect(fn.Timeout).toBe(900);
    expect(fn.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: 'Table' },
      CURSOR_SECRET: { Ref: 'CursorSecret' },
    });
    const actions = fn.Policies[0].Statement.flatMap((statement: Template) => statement.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Scan', 'dynamodb:UpdateTable', 'dynamodb:UpdateItem']));
    expect(actions).not.toContain('dynamodb:BatchWriteItem');
    expect(template.Resources.Table.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: TTL_ATTRIBUTE,
      Enabled: true,
    });
  });

  it('lets anyone call a public Function URL (AuthType NONE), and only then', () => {
    expect(template.Conditions.PublicUrl).toEqual({ Equals: [{ Ref: 'FunctionUrlAuthType' }, 'NONE'] });
    const permissions = Object.values(template.Resources).filter(
      (resource: Template) => resource.Type === 'AWS::Lambda::Permission',
    );
    expect(permissions.map((p: Template) => [p.Condition, p.Properties.Action, p.Properties.Principal]).sort()).toEqual(
      [
        ['PublicUrl', 'lambda:InvokeFunction', '*'],
        ['PublicUrl', 'lambda:InvokeFunctionUrl', '*'],
      ],
    );
  });

  it.skipIf(!hasCfnLint)('passes cfn-lint (with the SAM transform)', () => {
    expect(() => execFileSync('cfn-lint', [TEMPLATE], { encoding: 'utf8' })).not.toThrow();
  });
});
