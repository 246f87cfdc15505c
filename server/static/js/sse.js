// Server-Sent Events over a POST: EventSource only does GET, so the page reads the fetch body.
// Framing follows the HTML standard's event-stream rules (blank line ends an event, `data:`
// lines join with "\n", one space after the colon is dropped, `:` lines are comments).

/**
 * Split complete events off the front of `buffer`.
 * @returns {[Array<{event: string, data: string, id: string|null}>, string]} events and the rest
 */
export function splitEvents(buffer) {
  // A trailing "\r" may be the first half of "\r\n": keep it for the next chunk.
  const held = buffer.endsWith("\r") ? "\r" : "";
  const text = (held ? buffer.slice(0, -1) : buffer).replace(/\r\n?/g, "\n");
  const blocks = text.split("\n\n");
  const rest = blocks.pop() + held;
  const events = [];
  for (const block of blocks) {
    const event = parseBlock(block);
    if (event) events.push(event);
  }
  return [events, rest];
}

function parseBlock(block) {
  let event = "message";
  let id = null;
  const data = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return data.length ? { event, data: data.join("\n"), id } : null;
}

/** Yield the events of a fetch response body as they arrive. */
export async function* readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let events;
      [events, buffer] = splitEvents(buffer + value);
      yield* events;
    }
    // A stream may end without the final blank line.
    finished = true;
    yield* splitEvents(buffer + "\n\n")[0];
  } finally {
    // The reader stopped early (an error, or the caller stopped listening): close the stream.
    if (!finished) await reader.cancel().catch(() => {});
  }
}
