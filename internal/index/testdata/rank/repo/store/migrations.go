package store

import (
	"context"
	"fmt"
)

// migrations are the schema changes, applied in order.
var migrations = []string{
	`CREATE TABLE invoices (id SERIAL PRIMARY KEY, customer TEXT, total NUMERIC)`,
	`CREATE TABLE lines (invoice_id INT REFERENCES invoices, sku TEXT, qty INT)`,
	`ALTER TABLE invoices ADD COLUMN currency TEXT DEFAULT 'EUR'`,
}

// Migrate applies the schema migrations the database has not seen yet.
func (db *DB) Migrate(ctx context.Context) error {
	var version int
	db.pool.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version)
	for i := version; i < len(migrations); i++ {
		if _, err := db.pool.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	return nil
}
