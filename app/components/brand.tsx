import Link from "next/link";

export function Brand() {
  return (
    <Link href="/" className="text-lg font-semibold tracking-tight">
      SheetAPI
    </Link>
  );
}
