//! A tiny fixed-capacity FIFO for a component's pending outputs, so that creating a
//! component allocates nothing. The world drains outputs after every input, so only a
//! handful are ever pending, and a full outbox is a bug (asserted in debug builds).

/// A ring of at most `N` pending outputs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outbox<T: Copy, const N: usize> {
    items: [Option<T>; N],
    head: usize,
    len: usize,
}

impl<T: Copy, const N: usize> Outbox<T, N> {
    pub(crate) const fn new() -> Self {
        Outbox {
            items: [None; N],
            head: 0,
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push_back(&mut self, t: T) {
        debug_assert!(
            self.len < N,
            "an outbox of {N} is full: its owner is not drained"
        );
        if self.len == N {
            // Release builds keep the newest rather than stop the page.
            self.head = (self.head + 1) % N;
            self.len -= 1;
        }
        self.items[(self.head + self.len) % N] = Some(t);
        self.len += 1;
    }

    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        // Copied, not taken: the slot is overwritten before it is read again.
        let t = self.items[self.head];
        self.head = (self.head + 1) % N;
        self.len -= 1;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::Outbox;

    #[test]
    fn fifo_order() {
        let mut q: Outbox<u32, 4> = Outbox::new();
        for i in 0..3 {
            q.push_back(i);
        }
        assert_eq!(q.pop_front(), Some(0));
        for i in 3..5 {
            q.push_back(i);
        }
        let rest: Vec<_> = core::iter::from_fn(|| q.pop_front()).collect();
        assert_eq!(rest, vec![1, 2, 3, 4]);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "is full")]
    fn a_full_outbox_is_a_bug() {
        let mut q: Outbox<u32, 2> = Outbox::new();
        for i in 0..3 {
            q.push_back(i);
        }
    }
}
