//! Reading a file of Warden's or git's front to back: the stat cache and git's index.

pub(super) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// How far it has read.
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn is_done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// The next `n` bytes; `None` when fewer are left.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|end| *end <= self.bytes.len())?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Some(taken)
    }

    pub fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.bytes(N)?.try_into().ok()
    }

    /// The bytes up to a NUL, which is read and not returned.
    pub fn until_nul(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let len = rest.iter().position(|b| *b == 0)?;
        self.at += len + 1;
        Some(&rest[..len])
    }
}
