import React, { useState } from "react";

// luhnValid checks a credit card number with the Luhn algorithm.
export function luhnValid(cardNumber: string): boolean {
  const digits = cardNumber.replace(/\D/g, "").split("").reverse().map(Number);
  const sum = digits.reduce((acc, d, i) => {
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    return acc + d;
  }, 0);
  return digits.length > 11 && sum % 10 === 0;
}

export function CheckoutForm({ onPay }: { onPay: (card: string) => void }) {
  const [card, setCard] = useState("");
  const valid = luhnValid(card);
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (valid) onPay(card); }}>
      <input value={card} onChange={(e) => setCard(e.target.value)} placeholder="Card number" />
      <button disabled={!valid}>Pay</button>
    </form>
  );
}
