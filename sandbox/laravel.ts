/**
 * What the provider's Laravel 10 application says, word for word, where public sources show it:
 * exception messages, validation messages and the shapes of error bodies.
 */

/** Laravel's getDisplayableAttribute: `keyPickup_location` → `key pickup location`. */
export function displayName(attribute: string, fromWildcard: boolean): string {
  if (fromWildcard) return attribute; // implicit (wildcard) attributes are shown as they are
  return attribute
    .replace(/(.)(?=[A-Z])/g, '$1_')
    .toLowerCase()
    .replace(/_/g, ' ');
}

export const messages = {
  required: (a: string) => `The ${a} field is required.`,
  requiredUnless: (a: string, other: string, values: readonly string[]) =>
    `The ${a} field is required unless ${other} is in ${values.join(', ')}.`,
  string: (a: string) => `The ${a} field must be a string.`,
  integer: (a: string) => `The ${a} field must be an integer.`,
  boolean: (a: string) => `The ${a} field must be true or false.`,
  email: (a: string) => `The ${a} field must be a valid email address.`,
  array: (a: string) => `The ${a} field must be an array.`,
  in: (a: string) => `The selected ${a} is invalid.`,
  file: (a: string) => `The ${a} field must be a file.`,
  uploaded: (a: string) => `The ${a} failed to upload.`,
  minNumeric: (a: string, n: number) => `The ${a} field must be at least ${n}.`,
  minArray: (a: string, n: number) => `The ${a} field must have at least ${n} items.`,
  minString: (a: string, n: number) => `The ${a} field must be at least ${n} characters.`,
  maxNumeric: (a: string, n: number) => `The ${a} field must not be greater than ${n}.`,
  maxArray: (a: string, n: number) => `The ${a} field must not have more than ${n} items.`,
  maxString: (a: string, n: number) => `The ${a} field must not be greater than ${n} characters.`,
} as const;

export type ValidationErrors = Record<string, string[]>;

/** ValidationException::summarize: the first message, then how many more there are. */
export function validationBody(errors: ValidationErrors): {
  message: string;
  errors: ValidationErrors;
} {
  const all = Object.values(errors).flat();
  const [first = 'The given data was invalid.', ...rest] = all;
  const more = rest.length;
  const message =
    more === 0 ? first : `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
  return { message, errors };
}

export const ORDER_MODEL = 'App\\Models\\Order';
export const MEDIA_MODEL = 'Spatie\\MediaLibrary\\MediaCollections\\Models\\Media';

/** ModelNotFoundException turned into a 404 by the exception handler. */
export const modelNotFound = (model: string, id: string) =>
  `No query results for model [${model}] ${id}`;

/** Laravel's Request::path(): no leading or trailing slash, `/` for the root. */
export function laravelPath(urlPath: string): string {
  const trimmed = urlPath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : trimmed;
}

export const routeNotFound = (urlPath: string) =>
  `The route ${laravelPath(urlPath)} could not be found.`;

export const methodNotAllowed = (method: string, urlPath: string, allowed: readonly string[]) =>
  `The ${method} method is not supported for route ${laravelPath(urlPath)}. Supported methods: ${allowed.join(', ')}.`;

export const UNAUTHENTICATED = 'Unauthenticated.';
export const TOO_MANY_ATTEMPTS = 'Too Many Attempts.';
export const SERVER_ERROR = 'Server Error';
export const SERVICE_UNAVAILABLE = 'Service Unavailable';
/** Laravel 10 throws PostTooLargeException without a message, and renders it as it is. */
export const POST_TOO_LARGE = '';

/** nginx's own page for client_max_body_size, served by a front proxy before Laravel runs. */
export const NGINX_413_PAGE = `<html>\r
<head><title>413 Request Entity Too Large</title></head>\r
<body>\r
<center><h1>413 Request Entity Too Large</h1></center>\r
<hr><center>nginx</center>\r
</body>\r
</html>\r
`;

/** Apache's page for the trailing-slash redirect in Laravel's stock public/.htaccess. */
export function apacheMovedPage(location: string): string {
  return `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">
<html><head>
<title>301 Moved Permanently</title>
</head><body>
<h1>Moved Permanently</h1>
<p>The document has moved <a href="${location}">here</a>.</p>
</body></html>
`;
}
