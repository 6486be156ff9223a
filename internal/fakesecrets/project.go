package fakesecrets

// The project: a payments service, ledgerline, with a Go API, a Python
// risk service, a TypeScript web client, infrastructure, deployment,
// scripts, CI, docs, ctxpack artifacts and an evidence workspace.
//
// In a template, «secret:KIND» is a fresh secret of that kind,
// «look:KIND» a fresh look-alike and «look:KIND:ARG» one made from ARG
// (for some kinds ARG is the value itself). A multi-line value takes the
// indentation of its placeholder's line. Three single quotes stand for
// three backquotes.
var templates = []struct{ path, text string }{
	{"README.md", `# ledgerline

Ledgerline is Acme's payments ledger: a Go API (cmd/api), a Python risk
scoring service (services/risk) and a TypeScript console (web/).

## Running locally

'''sh
cp .env.example .env   # then fill in «look:angle-placeholder:api-key»
docker compose up -d db cache
go run ./cmd/api
'''

The AWS SDK reads credentials from the environment. For the unit tests a
fake pair is enough, like the one in AWS's own documentation:
«look:aws-docs-example-key-id» with «look:aws-docs-example-secret».

## Layout

- «look:long-identifier:github.com/acme-payments/ledgerline/internal/reconciliation/providerstatements» parses provider statements.
- internal/payments talks to Stripe; internal/notify to Slack.
- services/risk scores payments with a hosted model.
`},
	{".gitignore", `/web/node_modules/
/bin/
*.log
`},
	{".env.example", `# Copy to .env and fill in.
DATABASE_URL=«look:db-url-placeholder:postgres://billing:${DB_PASSWORD}@localhost:5432/billing»
STRIPE_SECRET_KEY=«look:angle-placeholder:stripe-secret-key»
OPENAI_API_KEY=
`},
	{"go.mod", `module github.com/acme-payments/ledgerline

go 1.23

require (
	github.com/aws/aws-sdk-go-v2 v1.30.3
	github.com/slack-go/slack v0.13.1
	github.com/stripe/stripe-go/v79 v79.6.0
)
`},
	{"go.sum", `github.com/aws/aws-sdk-go-v2 v1.30.3 «look:go-sum-hash»
github.com/aws/aws-sdk-go-v2 v1.30.3/go.mod «look:go-sum-hash»
github.com/slack-go/slack v0.13.1/go.mod h1:hlGi5oXA+Gt+yWTPP0plCdRKmjsDxecdHxYQdlMQKOw=
`},
	{"cmd/api/main.go", `// Command api serves the ledger's HTTP API.
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/acme-payments/ledgerline/internal/config"
	"github.com/acme-payments/ledgerline/internal/payments"
)

func main() {
	cfg, err := config.Load()
	if err != nil {
		log.Fatalf("api: loading configuration: %v", err)
	}
	stripeKey := «look:env-read:os.Getenv("STRIPE_API_KEY_OVERRIDE")»
	if stripeKey == "" {
		stripeKey = cfg.StripeKey
	}
	client := payments.NewClient(stripeKey)
	mux := http.NewServeMux()
	mux.Handle("/v1/charges", payments.ChargeHandler(client))
	mux.Handle("/v1/webhooks/stripe", payments.WebhookHandler(cfg.WebhookSecret))
	log.Printf("api: listening on %s", cfg.Addr)
	log.Fatal(http.ListenAndServe(cfg.Addr, mux))
}
`},
	{"internal/config/aws.go", `package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// statementsBucket holds the providers' daily statements.
const statementsBucket = "acme-ledger-statements"

// awsCredentials are the statement importer's credentials.
// TODO(ops): move to the instance role before the audit.
func awsCredentials(ctx context.Context) aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(
		"«secret:aws-access-key-id»",
		"«secret:aws-secret-access-key»",
		"",
	)
}
`},
	{"internal/config/config.go", `// Package config loads the API's configuration from the environment.
package config

import (
	"fmt"
	"os"
)

// Config is the API's configuration.
type Config struct {
	Addr          string
	DatabaseURL   string
	StripeKey     string
	WebhookSecret string
}

// Load reads the configuration; DATABASE_URL is required.
func Load() (Config, error) {
	c := Config{
		Addr:          envOr("ADDR", ":8080"),
		DatabaseURL:   os.Getenv("DATABASE_URL"),
		StripeKey:     os.Getenv("STRIPE_SECRET_KEY"),
		WebhookSecret: os.Getenv("STRIPE_WEBHOOK_SECRET"),
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = "«look:db-url-no-password:postgres://billing@localhost:5432/billing_dev?sslmode=disable»"
	}
	if c.Addr == "" {
		return Config{}, fmt.Errorf("config: ADDR is empty")
	}
	return c, nil
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}
`},
	{"internal/payments/stripe.go", `// Package payments charges customers through Stripe.
package payments

import (
	"encoding/json"
	"net/http"

	"github.com/stripe/stripe-go/v79"
	"github.com/stripe/stripe-go/v79/client"
)

// Keys look like «look:masked-key» in logs; never log one whole.

// fallbackKey is used when STRIPE_SECRET_KEY is unset.
// FIXME: remove before the next release.
const fallbackKey = "«secret:stripe-live-secret-key»"

// reportingKey can only read balance transactions.
const reportingKey = "«secret:stripe-restricted-key»"

// NewClient returns a Stripe client for key, or for the fallback key.
func NewClient(key string) *client.API {
	if key == "" {
		key = fallbackKey
	}
	sc := &client.API{}
	sc.Init(key, nil)
	return sc
}

// ReportingClient returns the read-only client of the nightly report.
func ReportingClient() *client.API {
	sc := &client.API{}
	sc.Init(reportingKey, nil)
	return sc
}

// ChargeHandler creates a charge from a JSON body {amount, currency, customer}.
func ChargeHandler(sc *client.API) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Amount   int64  ` + "`json:\"amount\"`" + `
			Currency string ` + "`json:\"currency\"`" + `
			Customer string ` + "`json:\"customer\"`" + `
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "payments: bad request body", http.StatusBadRequest)
			return
		}
		params := &stripe.PaymentIntentParams{
			Amount:   stripe.Int64(req.Amount),
			Currency: stripe.String(req.Currency),
			Customer: stripe.String(req.Customer),
		}
		pi, err := sc.PaymentIntents.New(params)
		if err != nil {
			http.Error(w, "payments: charge failed", http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(pi)
	})
}
`},
	{"internal/payments/webhook.go", `package payments

import (
	"io"
	"net/http"

	"github.com/stripe/stripe-go/v79/webhook"
)

// testSigningSecret signs the events of the local Stripe CLI.
const testSigningSecret = "«secret:stripe-webhook-secret»"

// WebhookHandler checks the Stripe-Signature header of each event with
// secret, or with the local secret when secret is empty.
func WebhookHandler(secret string) http.Handler {
	if secret == "" {
		secret = testSigningSecret
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		if err != nil {
			http.Error(w, "payments: reading the event", http.StatusBadRequest)
			return
		}
		if _, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), secret); err != nil {
			http.Error(w, "payments: bad signature", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
`},
	{"internal/payments/webhook_test.go", `package payments

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestSignature pins the HMAC of a fixed event with a fixed test key.
func TestSignature(t *testing.T) {
	mac := hmac.New(sha256.New, []byte("test-key"))
	mac.Write([]byte(fixtureEvent))
	got := hex.EncodeToString(mac.Sum(nil))
	want := "«look:hex-test-vector»"
	if got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
}

const fixtureEvent = ` + "`v1:1700000000:{\"id\":\"evt_1\"}`" + `

// fixtureInvoice is an invoice event's payload, base64 as Stripe sends it.
const fixtureInvoice = "«look:base64-sample»"
`},
	{"internal/notify/slack.go", `// Package notify posts payment alerts to Slack.
package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/slack-go/slack"
)

const (
	// botToken is the ledger-alerts bot's token.
	botToken = "«secret:slack-bot-token»"
	// alertsWebhook posts to #payments-alerts.
	alertsWebhook = "«secret:slack-webhook-url»"
)

// Alert posts text to the alerts channel through the incoming webhook.
func Alert(text string) error {
	body, _ := json.Marshal(map[string]string{"text": text})
	resp, err := http.Post(alertsWebhook, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("notify: slack answered %s", resp.Status)
	}
	return nil
}

// Thread replies in a thread of channel as the bot.
func Thread(channel, ts, text string) error {
	api := slack.New(botToken)
	_, _, err := api.PostMessage(channel, slack.MsgOptionText(text, false), slack.MsgOptionTS(ts))
	return err
}
`},
	{"internal/notify/escalate.go", `package notify

import "net/http"

// escalationToken is the on-call admin's user token, used to page.
var escalationToken = "«secret:slack-user-token»"

// Escalate pages the on-call engineer for an incident id.
func Escalate(id string) error {
	req, err := http.NewRequest(http.MethodPost, "https://slack.com/api/chat.postMessage?channel=oncall&text=incident+"+id, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+escalationToken)
	_, err = http.DefaultClient.Do(req)
	return err
}
`},
	{"internal/auth/keys.go", `// Package auth signs and checks the API's session tokens.
package auth

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
)

// verifyKey checks the tokens the identity service issues.
const verifyKey = ` + "`" + `«look:public-key-block»
` + "`" + `

// devSigningKey signs sessions in development. Production keys come from
// the KMS.
const devSigningKey = ` + "`" + `«secret:pkcs8-private-key»
` + "`" + `

// ParseVerifyKey parses verifyKey.
func ParseVerifyKey() (any, error) {
	block, _ := pem.Decode([]byte(verifyKey))
	if block == nil {
		return nil, errors.New("auth: verify key is not PEM")
	}
	return x509.ParsePKIXPublicKey(block.Bytes)
}

// ParseDevSigningKey parses devSigningKey.
func ParseDevSigningKey() (any, error) {
	block, _ := pem.Decode([]byte(devSigningKey))
	if block == nil {
		return nil, errors.New("auth: signing key is not PEM")
	}
	return x509.ParsePKCS8PrivateKey(block.Bytes)
}
`},
	{"internal/auth/session_test.go", `package auth

import "testing"

// adminSession was copied from a staging request to reproduce issue 311.
const adminSession = "«secret:jwt»"

// requestID is the id of the request that failed.
const requestID = "«look:uuid»"

func TestParseAdminSession(t *testing.T) {
	s, err := ParseSession(adminSession)
	if err != nil {
		t.Fatalf("request %s: %v", requestID, err)
	}
	if s.Role != "admin" {
		t.Errorf("role %q, want admin", s.Role)
	}
}
`},
	{"internal/storage/azure.go", `// Package storage archives statements to Azure Blob Storage.
package storage

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
)

const connectionString = "«secret:azure-storage-key»"

// Archive uploads a statement under name.
func Archive(ctx context.Context, name string, data []byte) error {
	client, err := azblob.NewClientFromConnectionString(connectionString, nil)
	if err != nil {
		return err
	}
	_, err = client.UploadBuffer(ctx, "statements", name, data, nil)
	return err
}
`},
	{"internal/vcs/github.go", `// Package vcs opens issues and reads releases on GitHub.
package vcs

import (
	"context"
	"net/http"
)

// Tokens of the release bot. The classic token is being replaced by the
// fine-grained one; the OAuth token belongs to the console's login.
var (
	classicToken     = "«secret:github-pat-classic»"
	fineGrainedToken = "«secret:github-fine-grained-pat»"
	oauthToken       = "«secret:github-oauth-token»"
)

// newRequest returns a GitHub API request authorized with the release bot's token.
func newRequest(ctx context.Context, method, path string, fine bool) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, "https://api.github.com"+path, nil)
	if err != nil {
		return nil, err
	}
	tok := classicToken
	if fine {
		tok = fineGrainedToken
	}
	req.Header.Set("Authorization", "token "+tok)
	req.Header.Set("Accept", "application/vnd.github+json")
	return req, nil
}

// consoleUser asks who is signed in to the console.
func consoleUser(ctx context.Context) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.github.com/user", nil)
	if err == nil {
		req.Header.Set("Authorization", "Bearer "+oauthToken)
	}
	return req, err
}
`},
	{"internal/vcs/app.go", `package vcs

// The GitHub App's tokens, captured while debugging the installation flow.
// They expire, but rotate them anyway.
const (
	installationToken = "«secret:github-app-token»"
	userToServerToken = "«secret:github-user-token»"
	refreshToken      = "«secret:github-refresh-token»"
)

// appTokens returns the tokens the app authenticates with, in order of use.
func appTokens() []string {
	return []string{installationToken, userToServerToken, refreshToken}
}
`},
	{"internal/billing/invoice.go", `// Package billing computes invoice totals in minor units.
package billing

import "fmt"

// defaultTenant is the tenant of invoices imported without one.
const defaultTenant = "«look:uuid»"

// discrepancyEvent is published when a converted line item does not match
// the provider's statement.
const discrepancyEvent = "«look:long-identifier:ledgerline.settlement.v2.ProviderStatementLineItemDiscrepancyDetected»"

// InvoiceLineItemCurrencyConversionReconciliationHandler reconciles
// converted line items with the provider's statement.
type InvoiceLineItemCurrencyConversionReconciliationHandler struct {
	Rates map[string]int64 // per million
}

// Total sums the lines, in minor units.
func Total(lines []int64) int64 {
	var t int64
	for _, l := range lines {
		t += l
	}
	return t
}

// Convert converts amount at rate, per million, rounding half-even.
func (h *InvoiceLineItemCurrencyConversionReconciliationHandler) Convert(amount int64, currency string) (int64, error) {
	rate, ok := h.Rates[currency]
	if !ok {
		return 0, fmt.Errorf("billing: no rate for %s", currency)
	}
	q, r := amount*rate/1_000_000, amount*rate%1_000_000
	if r*2 > 1_000_000 || r*2 == 1_000_000 && q%2 == 1 {
		q++
	}
	return q, nil
}
`},
	{"services/risk/app.py", `"""Risk scoring of payments with hosted models."""

import os

import anthropic
import openai
from fastapi import FastAPI
from huggingface_hub import InferenceClient

app = FastAPI(title="ledgerline-risk")

# Keys for the evaluation account; production reads them from the environment.
ANTHROPIC_API_KEY = os.environ.get("ANTHROPIC_API_KEY", "«secret:anthropic-api-key»")
openai.api_key = "«secret:openai-legacy-key»"
hf = InferenceClient(model="acme/payment-risk-small", token="«secret:huggingface-token»")

claude = anthropic.Anthropic(api_key=ANTHROPIC_API_KEY)


@app.post("/score")
def score(payment: dict) -> dict:
    """Score a payment from 0 (safe) to 1 (fraud)."""
    features = {k: payment.get(k) for k in ("amount", "currency", "country", "card_bin")}
    result = hf.text_classification(str(features))
    return {"score": result[0].score, "label": result[0].label}


@app.post("/explain")
def explain(payment: dict) -> dict:
    """Ask the model to explain a high score to an analyst."""
    msg = claude.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=400,
        messages=[{"role": "user", "content": f"Explain the fraud risk of {payment}"}],
    )
    return {"explanation": msg.content[0].text}
`},
	{"services/risk/auth.py", `"""Analyst logins for the risk console."""

import hashlib
import hmac
import os

PEPPER = os.environ["RISK_PEPPER"]


«look:password-field-name:def verify_password(plain_password: str, hashed_password: str) -> bool:»
    """Check a password against its stored hash."""
    digest = hashlib.pbkdf2_hmac("sha256", plain_password.encode(), PEPPER.encode(), 600_000)
    return hmac.compare_digest(digest.hex(), hashed_password)
`},
	{"services/risk/requirements.txt", `anthropic==0.39.0 \
    --hash=sha256:«look:sha256-hex»
fastapi==0.115.4
huggingface-hub==0.26.2
openai==1.54.3
`},
	{"config/settings.py", `"""Django settings of the back office."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = '«secret:django-secret-key»'

DEBUG = False
ALLOWED_HOSTS = ["backoffice.acme.io"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "backoffice",
        "USER": "backoffice",
        "PASSWORD": «look:env-read:os.environ["DB_PASSWORD"]»,
        "HOST": "db.internal.acme.io",
    },
    "reports": {
        "ENGINE": "django.db.backends.mysql",
        "NAME": "reports",
        "USER": "reports_ro",
        "PASSWORD": "«secret:generic-password»",
        "HOST": "mysql.internal.acme.io",
    },
}

# The warehouse export reads the reports database directly.
WAREHOUSE_URL = "«secret:mysql-url»"

EMAIL_BACKEND = "anymail.backends.sendgrid.EmailBackend"
`},
	{"config/app.yaml", `# Runtime configuration of the API; values in ${...} come from the environment.
server:
  addr: ":8080"
  read_timeout: 10s
payments:
  provider: stripe
  secret_key: «look:env-placeholder:STRIPE_SECRET_KEY»
  webhook_secret: «look:env-placeholder:STRIPE_WEBHOOK_SECRET»
fx:
  provider: openexchangerates
  api_key: «secret:generic-api-key»
  refresh: 1h
admin:
  user: admin
  password: «look:changeme-placeholder:changeme»
`},
	{"config/mail.json", `{
  "provider": "sendgrid",
  "from": "billing@acme.io",
  "sendgrid": {
    "api_key": "«secret:sendgrid-api-key»",
    "template_invoice": "d-4f1a2b3c4d5e4f60"
  },
  "mailgun": {
    "domain": "mg.acme.io",
    "api_key": "«secret:mailgun-api-key»"
  },
  "retry": {"attempts": 3, "backoff_ms": 500}
}
`},
	{"config/gcp-service-account.json", "«secret:gcp-service-account»\n"},
	{"web/package.json", `{
  "name": "@acme/ledger-console",
  "private": true,
  "version": "2.4.0",
  "scripts": {
    "dev": "vite",
    "build": "tsc && vite build"
  },
  "dependencies": {
    "openai": "^4.67.0",
    "react": "^18.3.1"
  }
}
`},
	{"web/package-lock.json", `{
  "name": "@acme/ledger-console",
  "version": "2.4.0",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "node_modules/react": {
      "version": "18.3.1",
      "resolved": "https://registry.npmjs.org/react/-/react-18.3.1.tgz",
      "integrity": "«look:npm-integrity»",
      "dependencies": {
        "loose-envify": "^1.1.0"
      }
    }
  }
}
`},
	{"web/src/api/client.ts", `import OpenAI from "openai";

// Summaries of disputes for the console. The key is the console's own
// project key; it is proxied in production.
const apiKey = «look:env-read:process.env.OPENAI_API_KEY» ?? "«secret:openai-project-key»";

export const openai = new OpenAI({ apiKey, dangerouslyAllowBrowser: true });

export async function summarizeDispute(text: string): Promise<string> {
  const res = await openai.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: "Summarize this dispute: " + text }],
  });
  return res.choices[0].message.content ?? "";
}
`},
	{"web/src/api/shop.ts", `// Orders from the merch shop, to reconcile card payments.
const SHOP = "acme-merch.myshopify.com";
const ADMIN_TOKEN = "«secret:shopify-access-token»";

export async function recentOrders(): Promise<unknown[]> {
  const res = await fetch("https://" + SHOP + "/admin/api/2024-10/orders.json?status=any", {
    headers: { "X-Shopify-Access-Token": ADMIN_TOKEN },
  });
  if (!res.ok) throw new Error("shop: " + res.status);
  return (await res.json()).orders;
}
`},
	{"web/src/lib/maps.js", `// Shows the merchant's address on the payment page.
const MAPS_KEY = "«secret:google-api-key»";

// A 16x16 pin, inlined so the map works offline.
export const PIN = "«look:data-uri»";

export function mapURL(lat, lng) {
  return "https://maps.googleapis.com/maps/api/staticmap?center=" + lat + "," + lng + "&zoom=15&size=600x300&key=" + MAPS_KEY;
}
`},
	{"Dockerfile", `FROM golang:1.23-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/api ./cmd/api

FROM gcr.io/distroless/static-debian12
COPY --from=build /out/api /api
# SMS receipts; the SID is the API key's, the token the account's.
ENV TWILIO_API_KEY=«secret:twilio-api-key»
ENV TWILIO_AUTH_TOKEN=«secret:twilio-auth-token»
ENV ADDR=:8080
USER nonroot
ENTRYPOINT ["/api"]
`},
	{"docker-compose.yml", `services:
  api:
    build: .
    environment:
      DATABASE_URL: «secret:postgres-url»
      REDIS_URL: «secret:redis-url»
      STRIPE_SECRET_KEY: «look:env-placeholder:STRIPE_SECRET_KEY_LOCAL»
    ports: ["8080:8080"]
    depends_on: [db, cache]
  worker:
    build: .
    command: ["/api", "worker"]
    environment:
      DATABASE_URL: «look:db-url-placeholder:postgres://billing:${PGPASSWORD}@db:5432/billing»
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: billing
      POSTGRES_PASSWORD: «look:env-placeholder:POSTGRES_PASSWORD»
    volumes: ["pgdata:/var/lib/postgresql/data"]
  cache:
    image: redis:7
volumes:
  pgdata: {}
`},
	{"infra/main.tf", `terraform {
  required_providers {
    digitalocean = { source = "digitalocean/digitalocean", version = "~> 2.40" }
    databricks   = { source = "databricks/databricks", version = "~> 1.50" }
  }
}

provider "digitalocean" {
  token = "«secret:digitalocean-token»"
}

provider "databricks" {
  host  = "https://adb-4417321051234567.7.azuredatabricks.net"
  token = "«secret:databricks-token»"
}

resource "digitalocean_ssh_key" "deploy" {
  name       = "ledgerline-deploy"
  public_key = "ssh-ed25519 «look:ssh-public-key» deploy@ledgerline"
}

resource "digitalocean_droplet" "bastion" {
  name     = "ledger-bastion"
  region   = "fra1"
  size     = "s-1vcpu-1gb"
  image    = "debian-12-x64"
  ssh_keys = [digitalocean_ssh_key.deploy.fingerprint]
}

# The load balancer's TLS key, until it moves to the certificate manager.
resource "digitalocean_certificate" "api" {
  name              = "ledger-api"
  type              = "custom"
  private_key       = <<-EOT
    «secret:ec-private-key»
  EOT
  leaf_certificate  = file("${path.module}/certs/api.crt")
}
`},
	{"infra/variables.tf", `variable "region" {
  description = "Region of the droplets"
  default     = "fra1"
}

variable "vault_token" {
  description = "Token Terraform reads the database passwords from Vault with"
  type        = string
  default     = "«secret:vault-token»"
  sensitive   = true
}
`},
	{"deploy/k8s/secret.yaml", `apiVersion: v1
kind: Secret
metadata:
  name: ledger-api-tls
  namespace: payments
type: kubernetes.io/tls
stringData:
  tls.key: |
    «secret:rsa-private-key»
  session-secret: "«secret:generic-secret»"
`},
	{"deploy/k8s/configmap.yaml", `apiVersion: v1
kind: ConfigMap
metadata:
  name: ledger-api-config
  namespace: payments
  uid: «look:uuid»
data:
  LOG_LEVEL: info
  ca.crt: |
    «look:certificate»
`},
	{"deploy/k8s/deployment.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger-api
  namespace: payments
spec:
  replicas: 3
  selector:
    matchLabels: {app: ledger-api}
  template:
    metadata:
      labels: {app: ledger-api}
    spec:
      imagePullSecrets: [{name: registry-auth}]
      containers:
        - name: api
          image: registry.acme.io/ledger/api:2.4.0
          envFrom: [{configMapRef: {name: ledger-api-config}}]
          env:
            - name: MONGO_URL
              value: "«secret:mongodb-srv-url»"
`},
	{"deploy/docker-config.json", `{
  "auths": {
    "registry.acme.io": {
      "auth": "«secret:docker-config-auth»"
    }
  },
  "credsStore": ""
}
`},
	{"scripts/deploy.sh", `#!/usr/bin/env bash
# Deploys the API to the bastion and restarts it.
set -euo pipefail

host=${1:-bastion.acme.io}

mkdir -p ~/.ssh
cat > ~/.ssh/id_ed25519 <<'EOF'
«secret:openssh-private-key»
EOF
chmod 600 ~/.ssh/id_ed25519

scp bin/api "deploy@$host:/opt/ledger/api.new"
ssh "deploy@$host" 'mv /opt/ledger/api.new /opt/ledger/api && systemctl restart ledger-api'

# Tell the status page.
curl -fsS -X POST https://status.acme.io/api/deploys \
  -H "Authorization: Basic «secret:http-basic-auth»" \
  -d "service=ledger-api"
`},
	{"scripts/release.sh", `#!/usr/bin/env bash
# Signs and publishes the Python client, and mirrors the repository.
set -euo pipefail

gpg --batch --import <<'KEY'
«secret:pgp-private-key»
KEY

python -m build clients/python
TWINE_USERNAME=__token__ TWINE_PASSWORD=«secret:pypi-token» twine upload --sign clients/python/dist/*

git push --mirror "https://oauth2:«secret:gitlab-pat»@gitlab.acme.io/payments/ledgerline.git"
`},
	{"scripts/notify.sh", `#!/usr/bin/env bash
# Posts a release note to the team's Telegram and Discord channels.
set -euo pipefail

note=$1
TELEGRAM_TOKEN="«secret:telegram-bot-token»"
DISCORD_TOKEN="«secret:discord-bot-token»"

curl -fsS "https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage" \
  -d chat_id=-1001234567890 -d text="$note"
curl -fsS https://discord.com/api/v10/channels/1100000000000000000/messages \
  -H "Authorization: Bot ${DISCORD_TOKEN}" -H "Content-Type: application/json" \
  -d "{\"content\": \"$note\"}"
`},
	{"scripts/backup.sh", `#!/usr/bin/env bash
# Nightly database backup, encrypted for the ops team.
set -euo pipefail

export SOPS_AGE_KEY="«secret:age-secret-key»"
pg_dump "$DATABASE_URL" | gzip | sops --encrypt --input-type binary /dev/stdin > "backup-$(date +%F).sql.gz.enc"
`},
	{".github/workflows/ci.yml", `name: ci
on:
  push: {branches: [main]}
  pull_request: {}
jobs:
  test:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env: {POSTGRES_PASSWORD: postgres}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with: {go-version: "1.23"}
      - run: go test ./...
        env:
          DATABASE_URL: «look:db-url-no-password:postgres://postgres@localhost:5432/postgres?sslmode=disable»
  publish:
    needs: test
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: {node-version: 20, registry-url: "https://registry.npmjs.org"}
      - run: npm ci && npm publish
        working-directory: web
        env:
          NODE_AUTH_TOKEN: «secret:npm-token»
`},
	{"docs/runbook.md", `# Runbook

## Replaying a failed webhook

Find the event in the dashboard, then replay it against the API:

'''sh
curl -X POST https://api.acme.io/v1/webhooks/replay \
  -H "Authorization: Bearer «secret:bearer-token»" \
  -d '{"event": "evt_1PQ"}'
'''

Replace the key with «look:angle-placeholder:stripe-key» when you copy
this to another environment.

## Restoring a backup

Backups are encrypted with age; the ops key is in the password manager.
Decrypt with 'sops --decrypt' after exporting SOPS_AGE_KEY.
`},
	{"CHANGELOG.md", `# Changelog

## 2.4.0

- Multi-currency invoices; conversion rounds half-even.
- Fix the duplicate refund on webhook retries (reverts «look:git-commit-id»).

## 2.3.1

- Statement import retries on S3 throttling.
`},
	// Files that are secret by their name.
	{".env", `# Local development
AWS_ACCESS_KEY_ID=«secret:aws-access-key-id»
AWS_SECRET_ACCESS_KEY=«secret:aws-secret-access-key»
STRIPE_SECRET_KEY=«secret:stripe-live-secret-key»
OPENAI_API_KEY=«secret:openai-project-key»
DATABASE_URL=«secret:postgres-url»
ADMIN_PASSWORD=«secret:generic-password»
`},
	{"deploy/keys/id_rsa", "«secret:openssh-private-key»\n"},
	{"certs/server.pem", "«secret:rsa-private-key»\n"},
	// ctxpack's artifacts: TASK-001 links two specs and a decision, which
	// quote secrets as people paste them.
	{".ctxpack/config.yaml", `tokenizer: o200k_base
format: text
`},
	{".ctxpack/system/identity.md", `---
project: ledgerline
languages: [go, python, typescript]
frameworks: [stripe, fastapi, react]
---
# ledgerline

Acme's payments ledger: charges, refunds, webhooks and statements. Money is
an integer of minor units with its currency.
`},
	{".ctxpack/work/tasks/TASK-001.md", `---
id: TASK-001
title: Rotate the leaked payment and notification credentials
status: in_progress
links:
  specs: [SPEC-PAYMENTS-001, SPEC-NOTIFY-001]
  decisions: [DEC-001]
owner: payments-team
---
# Rotate the leaked payment and notification credentials

The repository was public for an hour. Every credential in it must be
rotated and moved to Vault; the code must read them from the environment.

The worker crashed on start with this, which shows the database password:

'''
panic: dial «secret:postgres-url»: connection refused
request «look:uuid»
'''

## Done when

- No credential is in the repository or its history.
- The API, the worker and the scripts read every credential from Vault.
`},
	{".ctxpack/system/specs/SPEC-PAYMENTS-001.md", `---
id: SPEC-PAYMENTS-001
title: Stripe payments and webhooks
status: current
links:
  norms: [NORM-SECRETS-001]
paths: ["internal/payments/**", "config/**"]
---
# Stripe payments and webhooks

Charges go through PaymentIntents. Webhook events are checked with the
endpoint's signing secret; the staging endpoint's is
«secret:stripe-webhook-secret», the others are in Vault.

Configuration reads the keys from the environment:

'''yaml
payments:
  secret_key: «look:env-placeholder:STRIPE_LIVE_KEY»
  publishable_key: «look:angle-placeholder:publishable-key»
'''
`},
	{".ctxpack/system/specs/SPEC-NOTIFY-001.md", `---
id: SPEC-NOTIFY-001
title: Payment alerts in Slack
status: current
links:
  norms: [NORM-SECRETS-001]
paths: ["internal/notify/**", "scripts/notify.sh"]
---
# Payment alerts in Slack

Failed payouts and disputes are posted to #payments-alerts through the
incoming webhook («secret:slack-webhook-url»), and the bot replies in
threads.
`},
	{".ctxpack/system/rationale/DEC-001.md", `---
id: DEC-001
title: Credentials live in Vault
status: current
links:
  norms: [NORM-SECRETS-001]
---
# Credentials live in Vault

After the leak, every credential moves to Vault, read at start with a
short-lived token. The bootstrap token used during the migration was
«secret:vault-token»; it is revoked.

Fixed in «look:git-commit-id».
`},
	{".ctxpack/system/norms/NORM-SECRETS-001.md", `---
id: NORM-SECRETS-001
title: Credentials come from the environment
status: current
---
# Credentials come from the environment

Code reads a credential from the environment, never from a literal:
«look:env-read:os.environ["STRIPE_WEBHOOK_SECRET"]» in Python and
«look:env-read:os.Getenv("SLACK_BOT_TOKEN")» in Go.
`},
	// The evidence workspace: a policy, the request (with a token pasted
	// into it) and links to files with secrets.
	{"ctx/.ctxpackignore", `# ctxpack evidence: the workspace's own files, kept out of the project walk
/evidence/
/[0-9][0-9][0-9]_*.md
/[0-9][0-9][0-9]_*.md.skip
/[0-9][0-9][0-9]_*.link
/.focus
`},
	{"ctx/000_policy.system.md", `You are reviewing a payments service. Never repeat a credential you see;
name the file and line instead.
`},
	{"ctx/010_request.user.md", `The replay endpoint answers 401 since the rotation. This is the call that
fails:

    curl -H "Authorization: Bearer «secret:bearer-token»" https://api.acme.io/v1/webhooks/replay

Find every place that still holds an old credential.
`},
	{"ctx/evidence/100_stripe_go.evidence.link", "internal/payments/stripe.go\n"},
	{"ctx/evidence/110_settings_py.evidence.link", "config/settings.py\n"},
	{"ctx/evidence/120_deploy_sh.evidence.link", "scripts/deploy.sh\n"},
	{"ctx/evidence/130_env.evidence.link", ".env\n"},
}

// memories are added to the store at setup (ctxpack memory add).
var memories = []string{
	`Staging dashboards for the payments team are on Grafana Cloud.
Its service account token is «secret:grafana-service-account-token».
The payments team rotates the token monthly.`,
}

// commitMessage is the message of the project's one commit.
const commitMessage = `ledgerline 2.4.0

Import the payments ledger. Monitoring posts deploys with the New Relic
user key «secret:newrelic-user-api-key» until the rotation.
`
