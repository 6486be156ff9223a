import React, { useState } from "react";

type Props = { label: string; onSave?: (v: string) => void };

/** Widget edits one value. */
export default function Widget({ label, onSave }: Props) {
  const [value, setValue] = useState("");
  return (
    <form onSubmit={() => onSave?.(value)}>
      <label>{label}</label>
      <input value={value} onChange={(e) => setValue(e.target.value)} />
    </form>
  );
}

export const Badge = ({ n }: { n: number }) => <span className="badge">{n}</span>;
