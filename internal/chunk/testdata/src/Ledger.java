/*
 * Copyright (c) 2024 Example. All rights reserved.
 */
package com.example.billing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A ledger of entries in one currency.
 */
public class Ledger implements Iterable<Ledger.Entry> {
    /** One booked amount. */
    public record Entry(String account, BigDecimal amount) {}

    private final List<Entry> entries = new ArrayList<>();
    private final String currency;

    public Ledger(String currency) {
        this.currency = currency;
    }

    /** Books an amount; negative amounts are credits. */
    @Deprecated
    public void book(String account, BigDecimal amount) {
        if (amount == null) {
            throw new IllegalArgumentException("amount");
        }
        entries.add(new Entry(account, amount));
    }

    public BigDecimal balance() {
        return entries.stream().map(Entry::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Override
    public java.util.Iterator<Entry> iterator() {
        return entries.iterator();
    }

    enum Kind { DEBIT, CREDIT }

    interface Listener {
        void booked(Entry e);
    }
}
