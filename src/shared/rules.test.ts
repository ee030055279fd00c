import { describe, expect, it } from 'vitest';
import { isDigits, isEmail, isEmpty, isHandle, isNotBlank, isWebsiteUrl, isZip, mailboxKey } from './rules';

describe('requirements §5 field rules', () => {
  it('email must match a standard address pattern', () => {
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('ada.l+putty@mail.example.co.uk')).toBe(true);
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'ada @example.com', 'a@b@c.com']) expect(isEmail(bad)).toBe(false);
  });

  it('digits only for followers and phone numbers', () => {
    expect(isDigits('12000')).toBe(true);
    for (const bad of ['12k', '1,200', '-5', '', ' 12']) expect(isDigits(bad)).toBe(false);
  });

  it('ZIP allows digits, hyphens and spaces only', () => {
    expect(isZip('12345-6789')).toBe(true);
    expect(isZip('123 45')).toBe(true);
    expect(isZip('SW1A 1AA')).toBe(false);
  });

  it('a handle is not a URL and has no white space', () => {
    for (const good of ['ada.makes', '@adamakes', 'ada_makes_123']) expect(isHandle(good)).toBe(true);
    for (const bad of ['https://instagram.com/ada', 'www.instagram.com/ada', 'instagram.com/ada', 'ada makes', 'ada\tmakes']) expect(isHandle(bad)).toBe(false);
    // Scripts that put one or two combining marks on a letter pass; a stack of marks does not.
    for (const script of ['@नमस्ते', '@สวัสดี', 'Jose\u0301']) expect(isHandle(script)).toBe(true);
    expect(isHandle('ada\u0301\u0302\u0303')).toBe(false);
  });

  it('a website URL must look like a URL', () => {
    for (const good of ['https://ada.example', 'ada.example.com', 'http://ada.example/blog']) expect(isWebsiteUrl(good)).toBe(true);
    for (const bad of ['ada', 'not a url', 'ftp://ada.example', 'https://localhost', '12345', '0', '1.2.3.4', 'https://192.168.0.1/']) {
      expect(isWebsiteUrl(bad)).toBe(false);
    }
    expect(isWebsiteUrl('https://ada.xn--p1ai')).toBe(true); // an internationalised top-level domain
  });

  it('text must not be blank or white space only', () => {
    expect(isNotBlank(' a ')).toBe(true);
    expect(isNotBlank('   ')).toBe(false);
    expect(isNotBlank('\n\t')).toBe(false);
  });

  it('empty means undefined, null, empty string, empty array or false', () => {
    for (const empty of [undefined, null, '', [], false]) expect(isEmpty(empty)).toBe(true);
    for (const filled of ['a', ['a'], true, 0]) expect(isEmpty(filled)).toBe(false);
  });
});

describe('e-mail addresses and user names as creators type them', () => {
  it('e-mail: the WHATWG rule with a dotted domain and a letters-only top-level domain', () => {
    for (const good of ['ada@example.com', "o'neil+putty@mail.example.co.uk", 'ADA@EXAMPLE.COM', 'a_b-c@x-y.io']) expect(isEmail(good), good).toBe(true);
    for (const bad of [
      'a@b',
      'ada@example',
      '.ada@x.com',
      'ada.@x.com',
      'ada..x@x.com',
      '<ada@x.com>',
      'mailto:ada@x.com',
      'ada@x.com/',
      'ada@-x.com',
      'ada@x.c',
      'ada@x.123',
      'adà@x.com',
    ]) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });

  it('a user name is not only punctuation, an e-mail address or a bare domain', () => {
    for (const bad of ['@', '.', '@@ada', 'ada@example.com', 'ada.com', 'instagram.com', 'ada.makes.net']) expect(isHandle(bad), bad).toBe(false);
    for (const good of ['ada', '@ada', 'ada.makes', '_ada_']) expect(isHandle(good), good).toBe(true);
  });

  it('outside review: invisible-only text is blank, a ZIP has a digit, a URL has no user name, a local part is at most 64', () => {
    expect(isNotBlank('\u200b')).toBe(false);
    expect(isNotBlank('\u3164')).toBe(false);
    expect(isNotBlank('👩\u200d🎨')).toBe(true);
    expect(isZip(' - ')).toBe(false);
    expect(isZip('12-345')).toBe(true);
    expect(isWebsiteUrl('https://evil.com@ada.fr')).toBe(false);
    expect(isEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
  });
});

describe('the mailbox an address reaches', () => {
  it('is one for every case and +tag, and for a Gmail address with or without dots', () => {
    expect(new Set(['ada@example.com', 'ADA@Example.COM', 'ada+news@example.com', 'Ada+1+2@example.com'].map(mailboxKey))).toEqual(
      new Set(['ada@example.com']),
    );
    expect(new Set(['a.da@gmail.com', 'ADA+x@googlemail.com', 'ada@gmail.com'].map(mailboxKey))).toEqual(new Set(['ada@gmail.com']));
    // Dots matter elsewhere.
    expect(mailboxKey('a.da@example.com')).not.toBe(mailboxKey('ada@example.com'));
  });
});
