export interface CartItem {
  sku: string;
  quantity: number;
  unitPrice: number;
}

export class Cart {
  private items: CartItem[] = [];

  addItem(item: CartItem): void {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.quantity += item.quantity;
    } else {
      this.items.push({ ...item });
    }
  }

  removeItem(sku: string): void {
    this.items = this.items.filter((i) => i.sku !== sku);
  }

  computeSubtotal(): number {
    return this.items.reduce((sum, i) => sum + i.quantity * i.unitPrice, 0);
  }
}
