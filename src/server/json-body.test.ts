import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from './json-body';

describe('findDuplicateKey (RFC 8259 §4)', () => {
  it('finds a key given twice in one object, at any depth, with its dotted path', () => {
    expect(findDuplicateKey('{"a":1,"a":2}')).toBe('a');
    expect(findDuplicateKey('{"p":{"x":"a,b","y":{"z":1},"x":3}}')).toBe('p.x');
    expect(findDuplicateKey('{"list":[{"k":1},{"k":1,"k":2}]}')).toBe('list.1.k');
    expect(findDuplicateKey('{"first\\u004eame":1,"firstName":2}')).toBe('firstName');
  });

  it('lets the same key stand in different objects, and strings that look like keys', () => {
    expect(findDuplicateKey('{"a":{"a":1},"b":{"a":2},"c":["a","a"],"d":"\\"a\\":1"}')).toBeUndefined();
    expect(findDuplicateKey('[{"a":1},{"a":1}]')).toBeUndefined();
    expect(findDuplicateKey('"a"')).toBeUndefined();
  });
});
