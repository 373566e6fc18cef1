/**
 * A small re-implementation of the parts of Laravel's Validator the provider's API evidently uses,
 * so that the sandbox's 422 answers carry the same keys, messages and order as the real ones.
 */
import { displayName, messages, type ValidationErrors } from './laravel.js';

/** An uploaded file as the validator sees it; `ok: false` is PHP's upload error (too large). */
export interface UploadedFile {
  readonly kind: 'uploaded-file';
  readonly ok: boolean;
}

export type Rule =
  | { kind: 'required' }
  /** required_unless:other,values… */
  | { kind: 'requiredUnless'; other: string; values: readonly string[] }
  /** Rule::requiredIf(closure): reported with the plain `required` message. */
  | { kind: 'requiredIf'; when: (data: Record<string, unknown>) => boolean }
  | { kind: 'nullable' }
  | { kind: 'string' }
  | { kind: 'integer' }
  | { kind: 'boolean' }
  | { kind: 'email' }
  | { kind: 'array' }
  | { kind: 'file' }
  | { kind: 'in'; values: readonly string[] }
  | { kind: 'min'; value: number }
  | { kind: 'max'; value: number };

/** Attribute patterns in the order they are validated; `*` expands over an array's indices. */
export type RuleSet = ReadonlyArray<readonly [pattern: string, rules: readonly Rule[]]>;

const IMPLICIT = new Set<Rule['kind']>(['required', 'requiredUnless', 'requiredIf']);

export function validate(data: Record<string, unknown>, ruleSet: RuleSet): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const [pattern, rules] of ruleSet) {
    for (const attribute of expand(pattern, data)) {
      const found = lookup(data, attribute);
      const fieldMessages = checkAttribute(data, attribute, pattern.includes('*'), found, rules);
      if (fieldMessages.length > 0) errors[attribute] = fieldMessages;
    }
  }
  return errors;
}

function checkAttribute(
  data: Record<string, unknown>,
  attribute: string,
  fromWildcard: boolean,
  found: { present: boolean; value: unknown },
  rules: readonly Rule[],
): string[] {
  const name = displayName(attribute, fromWildcard);
  const { present, value } = found;
  const nullable = rules.some((r) => r.kind === 'nullable');
  const numeric = rules.some((r) => r.kind === 'integer');
  // A failed upload is reported as such, and only as such, by any file or presence rule.
  if (isUploadError(value) && rules.some((r) => r.kind === 'file' || IMPLICIT.has(r.kind))) {
    return [messages.uploaded(name)];
  }
  const out: string[] = [];
  for (const rule of rules) {
    const implicit = IMPLICIT.has(rule.kind);
    // Laravel skips non-implicit rules for absent attributes and for null ones marked nullable.
    if (!implicit && (!present || (nullable && value === null))) continue;
    const message = check(rule, value, name, numeric, data);
    if (message === null) continue;
    out.push(message);
    if (implicit) return out; // nothing more to say about a missing value
  }
  return out;
}

function check(
  rule: Rule,
  value: unknown,
  name: string,
  numeric: boolean,
  data: Record<string, unknown>,
): string | null {
  switch (rule.kind) {
    case 'required':
      return isFilled(value) ? null : messages.required(name);
    case 'requiredIf':
      return !rule.when(data) || isFilled(value) ? null : messages.required(name);
    case 'requiredUnless': {
      const other = lookup(data, rule.other).value;
      const exempt = rule.values.some((v) => looseEquals(other, v));
      return exempt || isFilled(value)
        ? null
        : messages.requiredUnless(name, displayName(rule.other, false), rule.values);
    }
    case 'nullable':
      return null;
    case 'string':
      return typeof value === 'string' ? null : messages.string(name);
    case 'integer':
      return isInteger(value) ? null : messages.integer(name);
    case 'boolean':
      return [true, false, 0, 1, '0', '1'].includes(value as never) ? null : messages.boolean(name);
    case 'email':
      return typeof value === 'string' && EMAIL.test(value) ? null : messages.email(name);
    case 'array':
      return isArrayLike(value) ? null : messages.array(name);
    case 'file':
      return isUploadedFile(value) ? null : messages.file(name);
    case 'in':
      return isScalar(value) && rule.values.includes(String(value)) ? null : messages.in(name);
    case 'min':
    case 'max':
      return checkSize(rule.kind, rule.value, value, name, numeric);
  }
}

function checkSize(
  kind: 'min' | 'max',
  limit: number,
  value: unknown,
  name: string,
  numeric: boolean,
): string | null {
  const passes = (size: number) => (kind === 'min' ? size >= limit : size <= limit);
  if (numeric && isInteger(value)) {
    if (passes(Number(value))) return null;
    return kind === 'min' ? messages.minNumeric(name, limit) : messages.maxNumeric(name, limit);
  }
  if (isArrayLike(value)) {
    if (passes(Object.keys(value).length)) return null;
    return kind === 'min' ? messages.minArray(name, limit) : messages.maxArray(name, limit);
  }
  // mb_strlen counts code points, as Array.from does.
  const length = Array.from(isScalar(value) ? String(value) : '').length;
  if (passes(length)) return null;
  return kind === 'min' ? messages.minString(name, limit) : messages.maxString(name, limit);
}

// Laravel's default `email` rule (RFC validation) accepts almost anything shaped local@domain.
const EMAIL = /^[^\s@]+@[^\s@]+$/u;

/** PHP's FILTER_VALIDATE_INT: optional sign, no leading zeros, no fraction. */
function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && /^[+-]?(0|[1-9]\d*)$/.test(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A PHP array: a JSON array or object. */
function isArrayLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !isUploadedFile(value);
}

function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'uploaded-file'
  );
}

function isUploadError(value: unknown): boolean {
  return isUploadedFile(value) && !value.ok;
}

function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (isArrayLike(value)) return Object.keys(value).length > 0;
  return true;
}

/** PHP's loose `==` between a request value and a rule parameter (always a string). */
function looseEquals(value: unknown, parameter: string): boolean {
  if (typeof value === 'boolean') return value === (parameter === '1' || parameter === 'true');
  if (typeof value === 'number') return parameter.trim() !== '' && value === Number(parameter);
  return typeof value === 'string' && value === parameter;
}

/** Concrete attributes for a pattern: `order_products.*.id` → `order_products.0.id`, … */
function expand(pattern: string, data: Record<string, unknown>): string[] {
  const star = pattern.indexOf('*');
  if (star === -1) return [pattern];
  const parentPath = pattern.slice(0, star - 1);
  const rest = pattern.slice(star + 1);
  const parent = lookup(data, parentPath).value;
  if (!isArrayLike(parent)) return [];
  return Object.keys(parent).flatMap((key) => expand(`${parentPath}.${key}${rest}`, data));
}

function lookup(data: unknown, attribute: string): { present: boolean; value: unknown } {
  let current: unknown = data;
  for (const segment of attribute.split('.')) {
    if (!isArrayLike(current) || !Object.hasOwn(current, segment)) {
      return { present: false, value: undefined };
    }
    current = current[segment];
  }
  return { present: true, value: current };
}
