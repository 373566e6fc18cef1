import type { z } from 'zod';

/**
 * A zod issue in the words of someone editing a settings file ("must be a number") rather than
 * zod's own ("Invalid input: expected number, received NaN"). Messages given in a schema are kept.
 */
export function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // Only parses run with `reportInput` say what they got; without it, say the type.
      if ('input' in issue && issue.input === undefined) return 'is required';
      return `must be ${TYPES[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' && issue.message === 'Invalid URL'
        ? 'must be a URL'
        : issue.message;
    case 'invalid_union': {
      // Each branch's own reason; the values of every branch that takes literal values.
      const values = issue.errors.flatMap((branch) =>
        branch.flatMap((i) => (i.code === 'invalid_value' ? i.values : [])),
      );
      return values.length > 0
        ? `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`
        : issue.message;
    }
    default:
      return issue.message;
  }
}

const TYPES: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/**
 * The same issue as the values of `cli.error.config.invalid.setting`, for a person who reads
 * another language: which issue (`required`, `type`, `at_least`…) and what it names. A message
 * given in a schema is said as it is (`why`).
 */
export function issueValues(issue: z.core.$ZodIssue): Record<string, string> {
  const said = { issue: 'other', expected: '', limit: '', choices: '', why: issueText(issue) };
  switch (issue.code) {
    case 'invalid_type':
      if ('input' in issue && issue.input === undefined) return { ...said, issue: 'required' };
      return { ...said, issue: 'type', expected: issue.expected };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1)
        return { ...said, issue: 'empty' };
      return {
        ...said,
        issue: issue.inclusive ? 'at_least' : 'more_than',
        limit: String(issue.minimum),
      };
    case 'too_big':
      return {
        ...said,
        issue: issue.inclusive ? 'at_most' : 'less_than',
        limit: String(issue.maximum),
      };
    case 'invalid_value':
      return {
        ...said,
        issue: 'one_of',
        choices: issue.values.map((v) => JSON.stringify(v)).join(', '),
      };
    case 'invalid_format':
      return said.why === 'must be a URL' ? { ...said, issue: 'url' } : said;
    case 'custom':
      // An issue that names itself (a base URL's, connection.ts): said by that name.
      if (typeof issue.params?.said === 'string') return { ...said, issue: issue.params.said };
      return said;
    default:
      return said.why.startsWith('must be one of ')
        ? { ...said, issue: 'one_of', choices: said.why.slice('must be one of '.length) }
        : said;
  }
}
