"use client";
// The four permission checkboxes, for a new key and for each existing secret key.
import { PERMISSION_LABELS, PERMISSIONS, type Permission } from "@/lib/keys/permissions";

export function PermissionBoxes({ value, onChange, disabled, idPrefix }: { value: Permission[]; onChange: (p: Permission[]) => void; disabled?: boolean; idPrefix: string }) {
  return (
    <div className="flex flex-wrap gap-3">
      {PERMISSIONS.map((p) => (
        <label key={p} className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            id={`${idPrefix}-${p}`}
            data-testid={`${idPrefix}-${p}`}
            checked={value.includes(p)}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked ? PERMISSIONS.filter((x) => x === p || value.includes(x)) : value.filter((x) => x !== p))}
          />
          {PERMISSION_LABELS[p]}
        </label>
      ))}
    </div>
  );
}
