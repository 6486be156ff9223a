"""Sends transactional emails through SMTP."""

import smtplib
from email.message import EmailMessage

TEMPLATES = {
    "invoice": "Your invoice {number} is attached.",
    "welcome": "Welcome to the shop, {name}!",
}


def send_email(to, template, smtp_host="localhost", **fields):
    msg = EmailMessage()
    msg["To"] = to
    msg["From"] = "shop@example.com"
    msg["Subject"] = template.title()
    msg.set_content(TEMPLATES[template].format(**fields))
    with smtplib.SMTP(smtp_host) as smtp:
        smtp.send_message(msg)
