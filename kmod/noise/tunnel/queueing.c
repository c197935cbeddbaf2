// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: running packet crypto. Inline when a single CPU is online
 * (UML, small boxes: no queueing cost at all), otherwise round robin over
 * per-CPU workers on an unbound-free, CPU-intensive workqueue. The workers
 * finish out of order; each peer's tx_queue and rx_queue hold its packets
 * in nonce (send) or arrival (receive) order, and only their heads leave.
 *
 * Requests come from noise_crypt_req_alloc_id() at device creation, one
 * per slot and cipher; no allocation per packet. An inline operation an
 * asynchronous AEAD completes later is counted in nd->crypt_inflight until
 * its callback is done; noise_queueing_flush() waits for them (and the
 * workers wait for their own), so the device's teardown never frees a
 * request, a slot or the device under a driver that still holds one.
 */

#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include "device.h"
#include "stats.h"
#include "peer.h"
#include "queueing.h"

static void noise_slot_free(struct noise_crypt_slot *s)
{
	int c;

	for (c = 0; c < NOISE_CIPHER_COUNT; c++) {
		noise_crypt_req_free(s->req[c]);
		s->req[c] = NULL;
	}
}

static int noise_slot_init(struct noise_crypt_slot *s)
{
	int c;

	for (c = 0; c < NOISE_CIPHER_COUNT; c++) {
		s->req[c] = noise_crypt_req_alloc_id(c, GFP_KERNEL);
		if (!s->req[c]) {
			noise_slot_free(s);
			return -ENOMEM;
		}
	}
	s->busy = false;
	return 0;
}

/*
 * One inline operation less in flight. The last thing done with @nd: a
 * waiter in noise_queueing_flush() may free the device as soon as it sees
 * zero; wake_up_var() uses the address as a key only.
 */
static void noise_inline_put(struct noise_device *nd)
{
	if (atomic_dec_and_test(&nd->crypt_inflight))
		wake_up_var(&nd->crypt_inflight);
}

/* An inline operation finished later (an asynchronous driver). */
static void noise_inline_done(void *data, int err)
{
	struct sk_buff *skb = data;
	struct noise_crypt_slot *s = NOISE_CB(skb)->owner;
	struct noise_device *nd = NOISE_CB(skb)->kp->entry.peer->nd;

	nd->crypt_ops[NOISE_CB(skb)->dir]->finish(skb, err, true);
	WRITE_ONCE(s->busy, false);
	noise_inline_put(nd);
}

static void noise_worker_done(void *data, int err)
{
	struct noise_worker *w = data;

	w->err = err;
	complete(&w->done);
}

static void noise_worker_one(struct noise_worker *w, struct sk_buff *skb)
{
	const struct noise_crypt_ops *ops = w->nd->crypt_ops[NOISE_CB(skb)->dir];
	int err;

	reinit_completion(&w->done);
	err = ops->crypt(skb, &w->slot, noise_worker_done, w);
	if (err == -EINPROGRESS || err == -EBUSY) {
		wait_for_completion(&w->done);
		err = w->err;
	}
	local_bh_disable();
	ops->finish(skb, err, false);
	local_bh_enable();
}

static void noise_worker_fn(struct work_struct *work)
{
	struct noise_worker *w = container_of(work, struct noise_worker, work);
	struct sk_buff *skb;

	while ((skb = ptr_ring_consume_bh(&w->ring))) {
		noise_worker_one(w, skb);
		cond_resched();
	}
}

/*
 * Where crypto runs: -1 (default) inline when one CPU is online, else the
 * per-CPU workers; 0 always the workers; 1 always inline (benchmarks).
 */
static int crypt_inline = -1;
module_param(crypt_inline, int, 0644);
MODULE_PARM_DESC(crypt_inline, "packet crypto inline: -1 auto (one CPU online), 0 never, 1 always");

/* Context: any. */
bool noise_crypt_use_inline(void)
{
	int mode = READ_ONCE(crypt_inline);

	return mode < 0 ? num_online_cpus() == 1 : mode;
}

/*
 * Context: any (BH disabled or softirq). A packet encrypted synchronously
 * goes to @sent when given (the caller sends the batch), else out at once.
 */
static bool noise_crypt_inline(struct noise_device *nd, struct sk_buff *skb,
			       struct sk_buff_head *sent)
{
	const struct noise_crypt_ops *ops = nd->crypt_ops[NOISE_CB(skb)->dir];
	bool tx = NOISE_CB(skb)->dir == NOISE_CB_TX;
	struct noise_crypt_slot *s;
	int err;

	if (!noise_crypt_use_inline() || (tx && NOISE_CB(skb)->queued))
		return false;
	s = this_cpu_ptr(tx ? nd->inline_tx : nd->inline_rx);
	if (READ_ONCE(s->busy))
		return false;
	s->busy = true;
	NOISE_CB(skb)->owner = s;
	/* Counted before submission: the callback may run before we return. */
	atomic_inc(&nd->crypt_inflight);
	err = ops->crypt(skb, s, noise_inline_done, skb);
	if (err == -EINPROGRESS || err == -EBUSY)
		return true;
	noise_inline_put(nd);
	if (tx && sent && !err)
		__skb_queue_tail(sent, skb);
	else
		ops->finish(skb, err, true);
	s->busy = false;
	return true;
}

/*
 * Give a received packet its place in its peer's order before a worker
 * decrypts it (noise_rx_work() delivers the head while it is done).
 * Bounded per peer; a removed peer takes nothing (noise_peer_remove() sets
 * ->dead before the grace period, then purges the queue after it).
 * Return: false if @skb was dropped (counted, freed).
 */
static bool noise_rx_enqueue(struct sk_buff *skb)
{
	struct noise_keypair *kp = NOISE_CB(skb)->kp;
	struct noise_peer *peer = kp->entry.peer;
	bool ok;

	NOISE_CB(skb)->state = NOISE_CB_PENDING;
	NOISE_CB(skb)->queued = true;
	spin_lock_bh(&peer->rx_queue.lock);
	ok = !READ_ONCE(peer->dead) &&
	     skb_queue_len(&peer->rx_queue) < NOISE_MAX_QUEUED_PACKETS;
	if (likely(ok))
		__skb_queue_tail(&peer->rx_queue, skb);
	spin_unlock_bh(&peer->rx_queue.lock);
	if (unlikely(!ok)) {
		noise_count_drop(peer->nd, peer, NOISE_DROP_NO_KEY);
		noise_keypair_put(kp);
		kfree_skb(skb);
	}
	return ok;
}

/**
 * noise_queue_take_done() - take the head of an in-order queue if it is over.
 * @queue: a peer's tx_queue or rx_queue.
 * @state: set to the head's state (NOISE_CB_DONE or NOISE_CB_DEAD).
 *
 * The shared step of noise_tx_work() and noise_rx_work(): the head leaves
 * only once its crypto ended, so the peer's packets keep their order.
 * Context: BH disabled; takes the queue's lock.
 * Return: the unlinked head, or NULL (the queue is empty or its head is
 * still pending).
 */
struct sk_buff *noise_queue_take_done(struct sk_buff_head *queue, u8 *state)
{
	struct sk_buff *skb;

	spin_lock(&queue->lock);
	skb = skb_peek(queue);
	/* Pairs with the release in noise_tx_finish() and noise_rx_finish():
	 * the ciphertext or plaintext is visible once the state says done.
	 */
	*state = skb ? smp_load_acquire(&NOISE_CB(skb)->state) : NOISE_CB_PENDING;
	if (*state == NOISE_CB_PENDING)
		skb = NULL;
	else
		__skb_unlink(skb, queue);
	spin_unlock(&queue->lock);
	return skb;
}

/**
 * noise_crypt_dispatch() - encrypt or decrypt @skb (NOISE_CB(skb)->dir).
 * @nd: the device.
 * @skb: the packet; its cb holds the keypair and nonce.
 * @sent: send only: NULL, or where a packet encrypted inline and at once
 *	is put (still holding its keypair reference) for the caller to send
 *	with noise_tx_send_list(); without it, it is sent here.
 *
 * Context: softirq or BH disabled.
 */
void noise_crypt_dispatch(struct noise_device *nd, struct sk_buff *skb,
			  struct sk_buff_head *sent)
{
	struct noise_worker *w;
	int cpu;

	if (noise_crypt_inline(nd, skb, sent))
		return;
	if (NOISE_CB(skb)->dir == NOISE_CB_TX && !NOISE_CB(skb)->queued) {
		/* The inline slot was busy: keep it in the per-peer order. */
		NOISE_CB(skb)->queued = true;
		skb_queue_tail(&NOISE_CB(skb)->kp->entry.peer->tx_queue, skb);
	} else if (NOISE_CB(skb)->dir == NOISE_CB_RX && !noise_rx_enqueue(skb)) {
		return;
	}
	cpu = cpumask_next(READ_ONCE(nd->last_cpu), cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	WRITE_ONCE(nd->last_cpu, cpu);
	w = per_cpu_ptr(nd->workers, cpu);
	if (unlikely(ptr_ring_produce_bh(&w->ring, skb))) {
		nd->crypt_ops[NOISE_CB(skb)->dir]->finish(skb, -ENOBUFS, false);
		return;
	}
	queue_work_on(cpu, nd->wq, &w->work);
}

/*
 * The CPU a peer's in-order work runs on: the same one while it stays
 * online (spread over the online CPUs by the peer's number).
 */
static int noise_peer_serial_cpu(struct noise_peer *peer)
{
	int cpu = READ_ONCE(peer->serial_cpu);

	if (likely(cpu >= 0 && cpu_online(cpu)))
		return cpu;
	cpu = cpumask_nth((u32)peer->internal_id % num_online_cpus(),
			  cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	WRITE_ONCE(peer->serial_cpu, cpu);
	return cpu;
}

/**
 * noise_queue_peer_work() - queue a peer's tx_work or rx_work.
 * @peer: the peer.
 * @work: &peer->tx_work or &peer->rx_work.
 *
 * Both run on the peer's serial CPU, never where the worker that finished
 * a packet happens to be: what they hand on is queued per CPU (a veth or
 * loopback peer's backlog on send, the device's GRO cell on receive), and
 * two CPUs would each drain their share in their own time, so the peer's
 * packets could overtake one another after leaving its in-order queue.
 * Context: any.
 * Return: false if @work was already pending.
 */
bool noise_queue_peer_work(struct noise_peer *peer, struct work_struct *work)
{
	return queue_work_on(noise_peer_serial_cpu(peer), peer->nd->wq, work);
}

static void noise_ring_skb_free(void *p)
{
	struct sk_buff *skb = p;

	noise_keypair_put(NOISE_CB(skb)->kp);
	kfree_skb(skb);
}

static void noise_workers_free(struct noise_device *nd)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct noise_worker *w = per_cpu_ptr(nd->workers, cpu);

		ptr_ring_cleanup(&w->ring, noise_ring_skb_free);
		noise_slot_free(&w->slot);
	}
}

int noise_queueing_init(struct noise_device *nd, const struct noise_crypt_ops *tx,
			const struct noise_crypt_ops *rx)
{
	int cpu, err = -ENOMEM;

	nd->crypt_ops[NOISE_CB_TX] = tx;
	nd->crypt_ops[NOISE_CB_RX] = rx;
	nd->workers = alloc_percpu(struct noise_worker);
	nd->inline_tx = alloc_percpu(struct noise_crypt_slot);
	nd->inline_rx = alloc_percpu(struct noise_crypt_slot);
	if (!nd->workers || !nd->inline_tx || !nd->inline_rx)
		goto err;
	for_each_possible_cpu(cpu) {
		struct noise_worker *w = per_cpu_ptr(nd->workers, cpu);

		w->nd = nd;
		INIT_WORK(&w->work, noise_worker_fn);
		init_completion(&w->done);
		if (ptr_ring_init(&w->ring, NOISE_MAX_QUEUED_PACKETS, GFP_KERNEL) ||
		    noise_slot_init(&w->slot) ||
		    noise_slot_init(per_cpu_ptr(nd->inline_tx, cpu)) ||
		    noise_slot_init(per_cpu_ptr(nd->inline_rx, cpu)))
			goto err;
	}
	return 0;
err:
	noise_queueing_free(nd);
	return err;
}

/* Wait for the inline operations an asynchronous driver still holds. */
static void noise_inline_wait(struct noise_device *nd)
{
	wait_var_event(&nd->crypt_inflight, !atomic_read(&nd->crypt_inflight));
}

/**
 * noise_queueing_flush() - wait until no packet is in the crypto.
 * @nd: the device.
 *
 * Waits for the inline operations an asynchronous AEAD completes later
 * (they deliver or send, and free nothing of the device's but their
 * packet), then for the workers (which wait for their own requests), then
 * for inline ones the workers' deliveries may have started. The caller
 * stops new packets first (peer dead, sockets closed), or some may start
 * after this returns.
 * Context: process; may sleep.
 */
void noise_queueing_flush(struct noise_device *nd)
{
	noise_inline_wait(nd);
	flush_workqueue(nd->wq);
	noise_inline_wait(nd);
}

/* Context: process; after noise_queueing_flush(), nothing in flight. */
void noise_queueing_free(struct noise_device *nd)
{
	int cpu;

	WARN_ON_ONCE(atomic_read(&nd->crypt_inflight));

	if (nd->workers)
		noise_workers_free(nd);
	for_each_possible_cpu(cpu) {
		if (nd->inline_tx)
			noise_slot_free(per_cpu_ptr(nd->inline_tx, cpu));
		if (nd->inline_rx)
			noise_slot_free(per_cpu_ptr(nd->inline_rx, cpu));
	}
	free_percpu(nd->workers);
	free_percpu(nd->inline_tx);
	free_percpu(nd->inline_rx);
	nd->workers = NULL;
	nd->inline_tx = NULL;
	nd->inline_rx = NULL;
}
