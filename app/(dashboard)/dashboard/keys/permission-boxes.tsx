"use client";
// The four permission checkboxes, for a new key and for each existing secret key.
import { PERMISSION_LABELS, PERMISSIONS, type Permission } from "@/lib/keys/permissions";

export function PermissionBoxes({
  value,
  onChange,
  disabled,
  idPrefix,
}: {
  value: Permission[];
  onChange: (p: Permission[]) => void;
  disabled?: boolean;
  idPrefix: string;
}) {
  return (
    <div className="flex flex-wrap gap-x-1 gap-y-1">
      {PERMISSIONS.map((p) => (
        // The whole label is the target: 44 px tall on a phone, as touch guidelines ask.
        <label
          key={p}
          className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-2 text-sm hover:bg-slate-50 sm:min-h-9 dark:hover:bg-slate-900"
        >
          <input
            type="checkbox"
            className="size-5"
            id={`${idPrefix}-${p}`}
            data-testid={`${idPrefix}-${p}`}
            checked={value.includes(p)}
            disabled={disabled}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? PERMISSIONS.filter((x) => x === p || value.includes(x))
                  : value.filter((x) => x !== p),
              )
            }
          />
          {PERMISSION_LABELS[p]}
        </label>
      ))}
    </div>
  );
}
