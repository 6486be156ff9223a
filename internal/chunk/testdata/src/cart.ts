// Copyright 2024 Example Corp. Licensed under the MIT License.

/**
 * Shopping cart state and totals.
 */
import { Money, round } from "./money";
import type { Product } from "./product";

export const MAX_ITEMS = 100;

/** A line in the cart. */
export interface CartLine {
  product: Product;
  quantity: number;
}

export type Currency = "EUR" | "USD";

export enum Status {
  Open,
  Closed,
}

/**
 * Cart holds lines and computes totals.
 */
export class Cart {
  private lines: CartLine[] = [];

  constructor(readonly currency: Currency) {}

  /** Add a product. */
  add(product: Product, quantity = 1): void {
    if (this.lines.length >= MAX_ITEMS) {
      throw new Error("cart is full");
    }
    this.lines.push({ product, quantity });
  }

  get total(): Money {
    return round(this.lines.reduce((s, l) => s + l.product.price * l.quantity, 0));
  }
}

export function emptyCart(currency: Currency): Cart {
  return new Cart(currency);
}

export const format = (m: Money): string => `${m.toFixed(2)}`;

namespace Internal {
  export function debug(c: Cart): string {
    return JSON.stringify(c);
  }
}

export default Cart;
