package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// DB is the shop's PostgreSQL connection pool.
type DB struct{ pool *sql.DB }

// InTx runs f in a serializable transaction, retrying it when PostgreSQL
// reports a serialization failure (SQLSTATE 40001).
func (db *DB) InTx(ctx context.Context, f func(*sql.Tx) error) error {
	for attempt := 0; ; attempt++ {
		tx, err := db.pool.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
		if err != nil {
			return err
		}
		if err = f(tx); err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "40001" && attempt < 5 {
			continue
		}
		return err
	}
}
