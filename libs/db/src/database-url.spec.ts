import { databaseName, redactUrl, withDatabaseName } from './database-url';

describe('database urls', () => {
  it('reads and replaces the database name', () => {
    const url = 'postgresql://app:secret@db.internal:6543/dex?sslmode=require';
    expect(databaseName(url)).toBe('dex');
    const other = withDatabaseName(url, 'test_1');
    expect(databaseName(other)).toBe('test_1');
    expect(other).toBe('postgresql://app:secret@db.internal:6543/test_1?sslmode=require');
  });

  it('hides the password when printing', () => {
    expect(redactUrl('postgresql://app:secret@h:5432/dex')).toBe('postgresql://app:***@h:5432/dex');
  });

  it('rejects urls without a database or of another scheme', () => {
    expect(() => databaseName('postgresql://postgres@127.0.0.1:5432')).toThrow(/names no database/);
    expect(() => databaseName('mysql://root@127.0.0.1/dex')).toThrow(/postgresql/);
  });
});
