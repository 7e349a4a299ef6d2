import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, typeScriptFiles } from './source-files';

/** The AWS SDK's DynamoDB packages whose clients and commands make calls: only src/store may send them. */
const CALLING_PACKAGES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb-streams'];

/** Whether an import or export brings values (not only types) from its module. */
function bringsValues(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !(clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
  }
  const clause = node.importClause;
  // `import '…'` runs the module.
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.some((element) => !element.isTypeOnly);
}

/** Every value import of a calling package in `path`: static, `export … from` and `import('…')`, with its line. */
function valueImports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const note = (node: ts.Node, specifier: string) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push(`${relative(ROOT, path)}:${line} imports '${specifier}'`);
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      if (CALLING_PACKAGES.includes(specifier) && bringsValues(node)) note(node, specifier);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument) && CALLING_PACKAGES.includes(argument.text)) {
        note(node, argument.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('the AWS SDK is called through src/store alone', () => {
  it('no module of src/ outside src/store imports its clients or commands (types are fine)', () => {
    const outside = [...typeScriptFiles(SRC)].filter((path) => !relative(SRC, path).startsWith(`store${sep}`));
    expect(outside.length).toBeGreaterThan(100);
    expect(outside.flatMap(valueImports)).toEqual([]);
  });

  it('tells a value import from a type-only one', () => {
    const lines = (text: string) => {
      const file = ts.createSourceFile('example.ts', text, ts.ScriptTarget.Latest, true);
      return file.statements.filter(ts.isImportDeclaration).map(bringsValues);
    };
    expect(
      lines(
        [
          "import { QueryCommand } from '@aws-sdk/lib-dynamodb';",
          "import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
          "import { type AttributeValue } from '@aws-sdk/client-dynamodb';",
          "import { type AttributeValue, PutItemCommand } from '@aws-sdk/client-dynamodb';",
          "import * as sdk from '@aws-sdk/client-dynamodb';",
          "import '@aws-sdk/client-dynamodb';",
        ].join('\n'),
      ),
    ).toEqual([true, false, false, true, true, true]);
  });
});

/**
 * What src/store gives the rest of src/ as values: the one door (DynamoTable) and pure helpers that
 * call nothing (reserved keys, stream record parsing, the shared backoff). Anything else reaching
 * DynamoDB from outside would be a second door.
 */
const STORE_VALUES_OUTSIDE = new Set([
  'DynamoTable',
  'isReservedItem',
  'reservedKeySpace',
  'isCheckpointItem',
  'changeOfRecord',
  'isStreamEvent',
  'keepsLoadRecords',
  'STORAGE_UNAVAILABLE',
  'backoffDelay',
  'sleep',
]);

/** Every name `path` imports as a value from a module of src/store. */
function storeValueImports(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const target = resolve(dirname(path), (statement.moduleSpecifier as ts.StringLiteral).text);
    if (!relative(SRC, target).startsWith(`store${sep}`)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) {
      names.push(`${relative(ROOT, path)}: a whole module`);
      continue;
    }
    for (const element of bindings.elements) {
      if (!element.isTypeOnly) names.push(`${relative(ROOT, path)}: ${(element.propertyName ?? element.name).text}`);
    }
  }
  return names;
}

describe('DynamoDB is reached through one table object (src/store/table.ts)', () => {
  it('outside src/store, src/ takes from the store only DynamoTable and pure helpers', () => {
    const outside = [...typeScriptFiles(SRC)].filter((path) => !relative(SRC, path).startsWith(`store${sep}`));
    const imported = outside.flatMap(storeValueImports);
    expect(imported.some((line) => line.endsWith(': DynamoTable'))).toBe(true);
    expect(imported.filter((line) => !STORE_VALUES_OUTSIDE.has(line.split(': ')[1]!))).toEqual([]);
  });
});
