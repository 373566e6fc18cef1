import { describe, expect, it } from 'vitest';

import { type Rule, type RuleSet, validate } from '../../sandbox/validator.js';

const required: Rule = { kind: 'required' };
const nullable: Rule = { kind: 'nullable' };
const string: Rule = { kind: 'string' };
const integer: Rule = { kind: 'integer' };
const boolean: Rule = { kind: 'boolean' };
const email: Rule = { kind: 'email' };
const array: Rule = { kind: 'array' };
const file: Rule = { kind: 'file' };
const min = (value: number): Rule => ({ kind: 'min', value });
const max = (value: number): Rule => ({ kind: 'max', value });
const oneOf = (...values: string[]): Rule => ({ kind: 'in', values });

function errorsOf(data: Record<string, unknown>, rules: RuleSet) {
  return validate(data, rules);
}

function one(rules: Rule[], value: unknown, field = 'field_name'): string[] {
  const data = value === undefined ? {} : { [field]: value };
  return errorsOf(data, [[field, rules]])[field] ?? [];
}

describe('required', () => {
  it.each([[undefined], [null], [''], ['   '], [[]], [{}]])('refuses %j', (value) => {
    expect(one([required], value)).toEqual(['The field name field is required.']);
  });

  it.each([['x'], [0], [false], [[1]]])('accepts %j', (value) => {
    expect(one([required], value)).toEqual([]);
  });

  it('stops at a missing value: no type message after it', () => {
    expect(one([required, string, max(3)], null)).toEqual(['The field name field is required.']);
  });
});

describe('type rules', () => {
  it.each([
    ['string', string, 'abc', 12, 'The field name field must be a string.'],
    ['integer', integer, '12', '12.5', 'The field name field must be an integer.'],
    ['boolean', boolean, '1', 'yes', 'The field name field must be true or false.'],
    [
      'email',
      email,
      'a@b.be',
      'not-an-email',
      'The field name field must be a valid email address.',
    ],
    ['array', array, [1], 'x', 'The field name field must be an array.'],
    [
      'file',
      file,
      { kind: 'uploaded-file', ok: true },
      'x',
      'The field name field must be a file.',
    ],
  ])('%s accepts a good value and names a bad one', (_name, rule, good, bad, message) => {
    expect(one([rule], good)).toEqual([]);
    expect(one([rule], bad)).toEqual([message]);
  });

  it.each([[0], [12], [-3], ['0'], ['+5'], ['-5'], ['123456']])('integer accepts %j', (value) => {
    expect(one([integer], value)).toEqual([]);
  });

  it.each([['012'], ['1e3'], [' '], ['12.0'], [12.5], [true], [[1]], ['']])(
    'integer refuses %j (PHP FILTER_VALIDATE_INT)',
    (value) => {
      expect(one([integer], value)).toEqual(['The field name field must be an integer.']);
    },
  );

  it.each([[true], [false], [0], [1], ['0'], ['1']])('boolean accepts %j', (value) => {
    expect(one([boolean], value)).toEqual([]);
  });

  it.each([['true'], ['yes'], [2], ['ja']])('boolean refuses %j', (value) => {
    expect(one([boolean], value)).toEqual(['The field name field must be true or false.']);
  });

  it('does not check absent optional fields', () => {
    expect(one([string, integer], undefined)).toEqual([]);
  });

  it('checks a present null without nullable, as Laravel does', () => {
    expect(one([string], null)).toEqual(['The field name field must be a string.']);
  });

  it('skips a null marked nullable', () => {
    expect(one([nullable, string], null)).toEqual([]);
  });

  it('reports every failing rule of a present value', () => {
    expect(one([string, oneOf('a')], 5)).toEqual([
      'The field name field must be a string.',
      'The selected field name is invalid.',
    ]);
  });
});

describe('in', () => {
  it('matches exactly, case included', () => {
    expect(one([oneOf('nl', 'fr')], 'nl')).toEqual([]);
    expect(one([oneOf('nl', 'fr')], 'NL')).toEqual(['The selected field name is invalid.']);
  });

  it('refuses a list', () => {
    expect(one([oneOf('nl')], ['nl'])).toEqual(['The selected field name is invalid.']);
  });
});

describe('min and max', () => {
  it('compare numbers when the field is an integer field', () => {
    expect(one([integer, min(1)], '0')).toEqual(['The field name field must be at least 1.']);
    expect(one([integer, max(10)], 11)).toEqual([
      'The field name field must not be greater than 10.',
    ]);
    expect(one([integer, min(1)], '10')).toEqual([]);
  });

  it('compare characters for strings', () => {
    expect(one([string, max(3)], 'abcd')).toEqual([
      'The field name field must not be greater than 3 characters.',
    ]);
    expect(one([string, max(3)], 'één')).toEqual([]);
    expect(one([string, min(2)], 'a')).toEqual([
      'The field name field must be at least 2 characters.',
    ]);
  });

  it('count items for lists', () => {
    expect(one([array, min(1)], [])).toEqual(['The field name field must have at least 1 items.']);
    expect(one([array, max(1)], [1, 2])).toEqual([
      'The field name field must not have more than 1 items.',
    ]);
  });
});

describe('conditional presence', () => {
  const unless: Rule = { kind: 'requiredUnless', other: 'no_contact_mail', values: ['1'] };

  it.each([[1], ['1'], [true]])('required_unless is satisfied by the exemption %j', (flag) => {
    expect(errorsOf({ no_contact_mail: flag }, [['contact_email', [unless]]])).toEqual({});
  });

  it.each([[0], ['0'], [false], [undefined]])(
    'required_unless applies when the flag is %j',
    (flag) => {
      expect(errorsOf({ no_contact_mail: flag }, [['contact_email', [unless]]])).toEqual({
        contact_email: ['The contact email field is required unless no contact mail is in 1.'],
      });
    },
  );

  it('requiredIf uses the plain required message when its condition holds', () => {
    const rule: Rule = { kind: 'requiredIf', when: (data) => data.kind === 'elec' };
    expect(errorsOf({ kind: 'elec' }, [['breaker_boxes', [rule]]])).toEqual({
      breaker_boxes: ['The breaker boxes field is required.'],
    });
    expect(errorsOf({ kind: 'epc' }, [['breaker_boxes', [rule]]])).toEqual({});
  });
});

describe('wildcards', () => {
  const rules: RuleSet = [
    ['items', [required, array]],
    ['items.*.id', [required, string]],
    ['items.*.quantity', [required, integer]],
  ];

  it('names each item by its index, ids first then quantities', () => {
    const errors = errorsOf({ items: [{ id: 'a', quantity: 'x' }, { quantity: 1 }, {}] }, rules);
    expect(Object.keys(errors)).toEqual([
      'items.1.id',
      'items.2.id',
      'items.0.quantity',
      'items.2.quantity',
    ]);
    expect(errors['items.1.id']).toEqual(['The items.1.id field is required.']);
    expect(errors['items.0.quantity']).toEqual(['The items.0.quantity field must be an integer.']);
  });

  it('expands nothing when the parent is not a list', () => {
    expect(errorsOf({ items: 'nope' }, rules)).toEqual({
      items: ['The items field must be an array.'],
    });
  });
});

describe('uploads', () => {
  it('reports a failed upload as such and nothing else', () => {
    const errors = errorsOf({ files: [{ kind: 'uploaded-file', ok: false }] }, [
      ['files', [required, array]],
      ['files.*', [required, file]],
    ]);
    expect(errors).toEqual({ 'files.0': ['The files.0 failed to upload.'] });
  });
});
