// The database the SQL migrations build must be what the Prisma schema describes: same tables, columns,
// column types, nullability, defaults (present or not), primary keys and unique constraints. Run after
// every schema change; a failure means schema.prisma and the migrations drifted apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminQuery, migrate } from '../src';
import { getDmmf, type DmmfField, type DmmfModel } from './support/prisma-dmmf';
import { createTempDatabase, type TempDatabase } from './support/temp-database';

jest.setTimeout(30_000);

const schema = readFileSync(join(__dirname, '../prisma/schema.prisma'), 'utf8');
const datamodel = getDmmf(schema);
const enumTypes = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));

/** The Postgres type Prisma creates for a scalar field, as `format_type()` prints it. */
function expectedType(field: DmmfField): string {
  const native = field.nativeType;
  if (native) {
    const [name, args] = native;
    const n = args.length ? `(${args.join(',')})` : '';
    const map: Record<string, string> = {
      Text: 'text',
      VarChar: `character varying${n}`,
      Char: `character${n}`,
      Uuid: 'uuid',
      Integer: 'integer',
      SmallInt: 'smallint',
      BigInt: 'bigint',
      Decimal: `numeric${n}`,
      DoublePrecision: 'double precision',
      Real: 'real',
      Boolean: 'boolean',
      Timestamp: `timestamp${n || '(3)'} without time zone`,
      Timestamptz: `timestamp${n || '(3)'} with time zone`,
      Date: 'date',
      Json: 'json',
      JsonB: 'jsonb',
      ByteA: 'bytea',
      Inet: 'inet',
    };
    if (!map[name]) throw new Error(`add native type @db.${name} to this test`);
    return map[name] + (field.isList ? '[]' : '');
  }
  const scalar: Record<string, string> = {
    String: 'text',
    Int: 'integer',
    BigInt: 'bigint',
    Float: 'double precision',
    Decimal: 'numeric(65,30)',
    Boolean: 'boolean',
    DateTime: 'timestamp(3) without time zone',
    Json: 'jsonb',
    Bytes: 'bytea',
  };
  const type = field.kind === 'enum' ? enumTypes.get(field.type) : scalar[field.type];
  if (!type) throw new Error(`add Prisma type ${field.type} to this test`);
  return type + (field.isList ? '[]' : '');
}

const tableOf = (m: DmmfModel) => m.dbName ?? m.name;
const columnOf = (f: DmmfField) => f.dbName ?? f.name;

interface ColumnRow {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
}

describe('migrations match schema.prisma', () => {
  let db: TempDatabase;
  let columns: ColumnRow[];
  let primaryKeys: Map<string, string[]>;
  let uniques: Map<string, string[][]>;
  const models = datamodel.models;

  beforeAll(async () => {
    db = await createTempDatabase();
    await migrate(db.url);
    columns = await adminQuery<ColumnRow>(
      db.url,
      `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
              a.attnotnull AS not_null, a.atthasdef AS has_default
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND c.relname <> '_prisma_migrations'
        ORDER BY c.relname, a.attnum`,
    );
    const constraints = await adminQuery<{ table_name: string; type: string; columns: string[] }>(
      db.url,
      `SELECT c.relname AS table_name, i.indisprimary::int::text AS type,
              array_agg(a.attname::text ORDER BY k.ord) AS columns
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND (i.indisunique OR i.indisprimary) AND c.relname <> '_prisma_migrations'
        GROUP BY c.relname, i.indexrelid, i.indisprimary`,
    );
    primaryKeys = new Map();
    uniques = new Map();
    for (const row of constraints) {
      if (row.type === '1') primaryKeys.set(row.table_name, row.columns);
      else uniques.set(row.table_name, [...(uniques.get(row.table_name) ?? []), row.columns]);
    }
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('reads the models from the schema', () => {
    expect(models.map((m) => m.name)).toContain('ChainCheckpoint');
  });

  it('has exactly the tables of the models', () => {
    const tables = [...new Set(columns.map((c) => c.table_name))].sort();
    expect(tables).toEqual(models.map(tableOf).sort());
  });

  it.each(models.map((m) => [m.name, m] as const))('%s: columns, types, nullability, defaults', (_name, model) => {
    const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum');
    const expected = scalars
      .map((f) => ({
        column: columnOf(f),
        type: expectedType(f),
        notNull: f.isRequired || f.isList,
        hasDefault: f.hasDefaultValue,
      }))
      .sort((a, b) => a.column.localeCompare(b.column));
    const actual = columns
      .filter((c) => c.table_name === tableOf(model))
      .map((c) => ({ column: c.column_name, type: c.type, notNull: c.not_null, hasDefault: c.has_default }))
      .sort((a, b) => a.column.localeCompare(b.column));
    expect(actual).toEqual(expected);
  });

  it.each(models.map((m) => [m.name, m] as const))('%s: primary key and unique constraints', (_name, model) => {
    const byName = new Map(model.fields.map((f) => [f.name, columnOf(f)]));
    const pk = model.primaryKey?.fields.map((f) => byName.get(f)) ?? model.fields.filter((f) => f.isId).map(columnOf);
    expect(primaryKeys.get(tableOf(model))).toEqual(pk);

    const expectedUniques = [
      ...model.fields.filter((f) => f.isUnique).map((f) => [columnOf(f)]),
      ...model.uniqueFields.map((fields) => fields.map((f) => byName.get(f))),
    ];
    const norm = (sets: (string | undefined)[][]) => sets.map((s) => s.join(',')).sort();
    expect(norm(uniques.get(tableOf(model)) ?? [])).toEqual(norm(expectedUniques));
  });
});
