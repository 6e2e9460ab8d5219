// Loopback ports for the servers tests start themselves.
import { createServer, Socket } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** True when something accepts connections on the port. */
export const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.setTimeout(300, () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
  });

/** Waits (up to `tries` x 100 ms) until the port accepts connections. */
export async function untilAnswering(port: number, tries = 100): Promise<void> {
  for (let i = 0; i < tries && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 100));
}
