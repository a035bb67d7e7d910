// The part of JSON Schema our schemas use (type, required, properties, additionalProperties: false, items, enum,
// pattern, minLength, maxLength, maxItems, minimum, maximum, anyOf, not), enough to check answers and tool inputs
// against them without a dependency. Unknown keywords are refused, so a schema cannot quietly use one this does not
// check; `default` and `examples` only describe.
export type Schema = Record<string, unknown>;

const KNOWN = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'required',
  'properties',
  'items',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'not',
  'additionalProperties',
  'minLength',
  'maxLength',
  'maxItems',
  'default',
  'examples',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Every place `value` breaks `schema`, as "path: what"; empty when it conforms. */
export function validateSchema(schema: Schema, value: unknown, path = '$'): string[] {
  for (const k of Object.keys(schema))
    if (!KNOWN.has(k)) throw new Error(`schema keyword "${k}" is not supported (at ${path})`);
  const errors: string[] = [];
  const t = typeOf(value);
  if (schema.type !== undefined) {
    const want = schema.type as string;
    if (!(t === want || (want === 'number' && t === 'integer'))) return [`${path}: is ${t}, not ${want}`];
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value))
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    errors.push(`${path}: "${value}" does not match ${schema.pattern}`);
  if (typeof value === 'string' && typeof schema.minLength === 'number' && value.length < schema.minLength)
    errors.push(`${path}: shorter than ${schema.minLength} characters`);
  if (typeof value === 'string' && typeof schema.maxLength === 'number' && value.length > schema.maxLength)
    errors.push(`${path}: longer than ${schema.maxLength} characters`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      errors.push(`${path}: ${value} < ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      errors.push(`${path}: ${value} > ${schema.maximum}`);
  }
  if (t === 'object') {
    const o = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? [])
      if (!(r in o)) errors.push(`${path}: "${r}" is missing`);
    for (const [k, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {}))
      if (k in o) errors.push(...validateSchema(sub, o[k], `${path}.${k}`));
    if (schema.additionalProperties === false) {
      const known = (schema.properties as Record<string, Schema> | undefined) ?? {};
      for (const k of Object.keys(o)) if (!Object.hasOwn(known, k)) errors.push(`${path}: "${k}" is not allowed`);
    }
  }
  if (t === 'array' && typeof schema.maxItems === 'number' && (value as unknown[]).length > schema.maxItems)
    errors.push(`${path}: more than ${schema.maxItems} items`);
  if (t === 'array' && schema.items)
    (value as unknown[]).forEach((item, i) =>
      errors.push(...validateSchema(schema.items as Schema, item, `${path}[${i}]`)),
    );
  if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => validateSchema(s, value, path).length === 0))
    errors.push(`${path}: matches none of anyOf`);
  if (schema.not && validateSchema(schema.not as Schema, value, path).length === 0)
    errors.push(`${path}: matches what "not" forbids (${JSON.stringify(schema.not)})`);
  return errors;
}
