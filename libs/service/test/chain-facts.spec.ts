// ChainFactsSubscription on a real NATS server with JetStream: a subscriber follows the chain facts the
// indexer publishes, from the moment it starts, in order, across a stream that appears late and a server
// that restarts, and skips what does not validate.
import { CHAIN_EVENTS_STREAM, CHAIN_FACTS, chainFactSubject, chainFactsFilter, type ChainFact } from '@dex/messages';
import { startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { Logger } from '@nestjs/common';
import { JSONCodec, nanos, type NatsConnection } from 'nats';
import { ChainFactsSubscription, NatsBus, type ChainFactMessage } from '../src';

jest.setTimeout(30_000);

const codec = JSONCodec<unknown>();
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/** A valid `pool.created` fact of chain `chainId` at block `block`. */
function poolCreated(chainId: number, block: number) {
  return {
    chainId,
    blockNumber: String(block),
    blockHash: hash(block),
    timestamp: 1_700_000_000 + block,
    address: address(block),
    kind: 'core',
    routerIndex: 0,
    token0: address(1),
    token1: address(2),
    stable: false,
  };
}

async function until(accept: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!accept()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ChainFactsSubscription', () => {
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let publisher: NatsConnection;
  let subscription: ChainFactsSubscription | undefined;
  const received: ChainFactMessage[] = [];
  const blocks = () => received.map((m) => Number((m.payload as { blockNumber: string }).blockNumber));

  const createStream = async () => {
    const jsm = await publisher.jetstreamManager();
    await jsm.streams.add({ name: CHAIN_EVENTS_STREAM, subjects: [chainFactsFilter()], duplicate_window: nanos(60_000) });
  };
  const publish = async (chainId: number, fact: ChainFact, payload: unknown) => {
    await publisher.jetstream().publish(chainFactSubject(chainId, fact), codec.encode(payload));
  };
  const subscribe = (facts: readonly ChainFact[] = [CHAIN_FACTS.poolCreated], chainIds = [999]) => {
    subscription = new ChainFactsSubscription({
      bus,
      logger: new Logger('test'),
      context: 'test',
      chainIds,
      facts,
      retryMs: 100,
      onFact: (m) => {
        received.push(m);
      },
    });
    subscription.start();
  };

  beforeEach(async () => {
    received.length = 0;
    nats = await startPrivateNatsServer();
    const { connect } = await import('nats');
    publisher = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    bus = new NatsBus({ url: nats.url, name: 'subscriber', logger: new Logger('bus') });
    await bus.connect();
  });

  afterEach(async () => {
    await subscription?.stop();
    subscription = undefined;
    await publisher.close();
    await bus.close();
    await nats.dispose();
  });

  it('delivers the facts published after it started, in order, only of its chains and facts, validated', async () => {
    await createStream();
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 1));
    // The start time has millisecond precision: a fact of the same millisecond counts as after it.
    await new Promise((r) => setTimeout(r, 20));
    subscribe();
    // The consumer starts at the moment of `start`: the fact before it is the state read at boot.
    await new Promise((r) => setTimeout(r, 300));
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 2));
    await publish(4663, CHAIN_FACTS.poolCreated, poolCreated(4663, 3));
    await publish(999, CHAIN_FACTS.swap, { chainId: 999 });
    await publish(999, CHAIN_FACTS.poolCreated, { chainId: 999, blockNumber: 'not a number' });
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 4));
    await until(() => received.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(blocks()).toEqual([2, 4]);
    expect(received[0]).toMatchObject({ chainId: 999, fact: CHAIN_FACTS.poolCreated, payload: { kind: 'core', address: address(2) } });
    expect(received[1].seq).toBeGreaterThan(received[0].seq);
    const metrics = bus.metrics.render();
    expect(metrics).toContain('chain_facts_received_total{chain="999",fact="pool.created",outcome="handled"} 2');
    expect(metrics).toContain('chain_facts_received_total{chain="999",fact="pool.created",outcome="invalid"} 1');
  });

  it('waits for a stream that does not exist yet and then receives what is published into it', async () => {
    subscribe();
    await new Promise((r) => setTimeout(r, 400));
    await createStream();
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 7));
    await until(() => received.length === 1);
    expect(blocks()).toEqual([7]);
  });

  it('resumes after the last fact it handled when the server restarts, skipping none and repeating none', async () => {
    await createStream();
    subscribe();
    await new Promise((r) => setTimeout(r, 300));
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 10));
    await until(() => received.length === 1);
    await nats.stop();
    await nats.start();
    // Published as soon as JetStream answers again, while the subscriber may still be reconnecting.
    for (let tries = 0; ; tries++) {
      try {
        await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 11));
        break;
      } catch (error) {
        if (tries === 50) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await publish(999, CHAIN_FACTS.poolCreated, poolCreated(999, 12));
    await until(() => received.length >= 3, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(blocks()).toEqual([10, 11, 12]);
  });
});
