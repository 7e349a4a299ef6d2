import { valueToSdk } from './values';

/** Conditions on one item's attributes. Names and values always go through placeholders: any of them is safe. */
export type Condition =
  | { readonly kind: 'equals'; readonly attribute: string; readonly value: unknown }
  | { readonly kind: 'absent'; readonly attribute: string }
  | { readonly kind: 'beginsWith'; readonly attribute: string; readonly prefix: string };

/** Builds placeholders for several expressions of one request, with no collisions, each in constant time. */
export class ExpressionBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  /** Attribute → its placeholder: one attribute named twice is one placeholder. */
  private readonly placeholderOf = new Map<string, string>();
  private count = 0;

  name(attribute: string): string {
    const known = this.placeholderOf.get(attribute);
    if (known !== undefined) return known;
    const placeholder = `#a${this.placeholderOf.size}`;
    this.placeholderOf.set(attribute, placeholder);
    this.names[placeholder] = attribute;
    return placeholder;
  }

  /** A value in core's form (exact numbers, sets), marshalled as the SDK takes it. */
  value(value: unknown): string {
    const placeholder = `:v${this.count++}`;
    this.values[placeholder] = valueToSdk(value);
    return placeholder;
  }

  condition(condition: Condition): string {
    const name = this.name(condition.attribute);
    switch (condition.kind) {
      case 'equals':
        return `${name} = ${this.value(condition.value)}`;
      case 'absent':
        return `attribute_not_exists(${name})`;
      case 'beginsWith':
        return `begins_with(${name}, ${this.value(condition.prefix)})`;
    }
  }

  /** Every condition holds (AND), or at least one (OR). */
  join(conditions: readonly Condition[], operator: 'AND' | 'OR'): string {
    return conditions.map((c) => `(${this.condition(c)})`).join(` ${operator} `);
  }

  /** An UpdateExpression: `SET` each of `set` (values in the API's form), `REMOVE` each of `remove`. */
  update(set: Readonly<Record<string, unknown>>, remove: readonly string[] = []): string {
    const clauses: string[] = [];
    const assignments = Object.entries(set).map(([name, value]) => `${this.name(name)} = ${this.value(value)}`);
    if (assignments.length > 0) clauses.push(`SET ${assignments.join(', ')}`);
    if (remove.length > 0) clauses.push(`REMOVE ${remove.map((name) => this.name(name)).join(', ')}`);
    return clauses.join(' ');
  }

  /** The request's placeholder maps, each only when used: DynamoDB refuses empty ones. */
  placeholders() {
    return {
      ...(this.placeholderOf.size > 0 && { ExpressionAttributeNames: this.names }),
      ...(Object.keys(this.values).length > 0 && { ExpressionAttributeValues: this.values }),
    };
  }
}
