#!/bin/sh
# Dump the database and upload the backup to S3, keeping 30 days.
set -eu
stamp=$(date +%Y%m%d)
pg_dump "$DATABASE_URL" | gzip > "/tmp/shop-$stamp.sql.gz"
aws s3 cp "/tmp/shop-$stamp.sql.gz" "s3://shop-backups/$stamp.sql.gz"
aws s3 ls s3://shop-backups/ | awk '{print $4}' | head -n -30 | xargs -r -I{} aws s3 rm "s3://shop-backups/{}"
