//! A tiny fixed-capacity FIFO for a component's pending outputs, so that creating a
//! component allocates nothing. The world drains outputs after every input, so only a
//! handful are ever pending; beyond the capacity the oldest unread output is dropped.

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
        if self.len == N {
            // Only a caller that never drains gets here (unit tests reading one kind of
            // output): keep the newest.
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
        let t = self.items[self.head].take();
        self.head = (self.head + 1) % N;
        self.len -= 1;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::Outbox;

    #[test]
    fn fifo_order_and_overflow_keeps_the_newest() {
        let mut q: Outbox<u32, 4> = Outbox::new();
        for i in 0..3 {
            q.push_back(i);
        }
        assert_eq!(q.pop_front(), Some(0));
        for i in 3..8 {
            q.push_back(i);
        }
        let rest: Vec<_> = core::iter::from_fn(|| q.pop_front()).collect();
        assert_eq!(rest, vec![4, 5, 6, 7]);
    }
}
