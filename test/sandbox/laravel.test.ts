import { describe, expect, it } from 'vitest';

import {
  displayName,
  laravelPath,
  methodNotAllowed,
  modelNotFound,
  ORDER_MODEL,
  routeNotFound,
  validationBody,
} from '../../sandbox/laravel.js';
import { otherMethods } from '../../sandbox/routes-table.js';

describe('displayName', () => {
  it.each([
    ['city', false, 'city'],
    ['contact_language', false, 'contact language'],
    ['keyPickup_location', false, 'key pickup location'],
    ['inv_vat', false, 'inv vat'],
    ['address1', false, 'address1'],
    ['order_products.0.id', true, 'order_products.0.id'],
    ['files.0', true, 'files.0'],
  ])('%s (wildcard: %s) reads "%s"', (attribute, wildcard, expected) => {
    expect(displayName(attribute, wildcard)).toBe(expected);
  });
});

describe('validationBody', () => {
  it('uses the only message as it is', () => {
    expect(validationBody({ city: ['The city field is required.'] }).message).toBe(
      'The city field is required.',
    );
  });

  it('counts one more error in the singular', () => {
    const body = validationBody({ city: ['A.'], address1: ['B.'] });
    expect(body.message).toBe('A. (and 1 more error)');
  });

  it('counts every further message, also several of one field', () => {
    const body = validationBody({ city: ['A.', 'B.'], address1: ['C.'] });
    expect(body.message).toBe('A. (and 2 more errors)');
    expect(body.errors).toEqual({ city: ['A.', 'B.'], address1: ['C.'] });
  });
});

describe('router messages', () => {
  it('names the path without slashes', () => {
    expect(laravelPath('/api/orders/')).toBe('api/orders');
    expect(laravelPath('/')).toBe('/');
    expect(routeNotFound('/api/nope')).toBe('The route api/nope could not be found.');
  });

  it('lists supported methods', () => {
    expect(methodNotAllowed('GET', '/api/orders/', ['POST'])).toBe(
      'The GET method is not supported for route api/orders. Supported methods: POST.',
    );
  });

  it('names the model and id of a missing record', () => {
    expect(modelNotFound(ORDER_MODEL, '12')).toBe(
      'No query results for model [App\\Models\\Order] 12',
    );
  });

  it.each([
    ['/api/orders', 'GET', ['POST']],
    ['/api/orders/', 'PUT', ['POST']],
    ['/api/orders/5', 'POST', ['GET', 'HEAD']],
    ['/api/orders/5', 'DELETE', ['GET', 'HEAD']],
    ['/api/files', 'GET', ['POST']],
    ['/api/files/9', 'PATCH', ['GET', 'HEAD']],
    ['/api/unknown', 'GET', []],
    ['/api/orders/5/extra', 'GET', []],
    ['/__sandbox/orders', 'DELETE', ['GET', 'HEAD']],
    ['/__sandbox/orders/5', 'GET', ['DELETE']],
  ])('%s with %s: other methods %j', (path, method, expected) => {
    expect(otherMethods(path, method)).toEqual(expected);
  });
});
