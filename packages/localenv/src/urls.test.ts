// Proves that a DATABASE_URL becomes a server URL without losing credentials, host, port or query,
// and that a database name can be put back on it.
import { describe, expect, it } from '@jest/globals';
import { databaseUrlOf, redactUrl, serverUrlOf } from './urls.ts';

describe('serverUrlOf', () => {
  it('drops the database and keeps everything else', () => {
    expect(serverUrlOf('postgres://app:s3cret@db.internal:6543/evds?sslmode=require')).toBe(
      'postgres://app:s3cret@db.internal:6543?sslmode=require',
    );
    expect(serverUrlOf('postgresql://postgres@127.0.0.1:5432/')).toBe('postgresql://postgres@127.0.0.1:5432');
    expect(serverUrlOf('postgres://postgres@127.0.0.1:5432')).toBe('postgres://postgres@127.0.0.1:5432');
  });
});

describe('databaseUrlOf', () => {
  it('puts the database before the query', () => {
    expect(databaseUrlOf('postgres://app:pw@h:1?sslmode=require', 'evds')).toBe(
      'postgres://app:pw@h:1/evds?sslmode=require',
    );
  });
});

describe('redactUrl', () => {
  it('hides the password only', () => {
    expect(redactUrl('postgres://app:s3cret@h:1/db')).toBe('postgres://app:***@h:1/db');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
