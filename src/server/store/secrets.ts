import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Secrets the server generates for itself and keeps in the database (`server_secrets`). */
export class SecretRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The secret called `name` (the anti-forgery key when `SECRET` is not set, decision 007): 32
   * random bytes, base64url, made on first use and kept, so every process on the database gets
   * the same one. Never logged.
   */
  async get(name: string): Promise<string> {
    // Two processes starting together: the first insert wins, both read the same value.
    await this.db
      .insertInto('server_secrets')
      .values({ name, value: randomBytes(32).toString('base64url') })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
