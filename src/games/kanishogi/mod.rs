//! Kani Shogi (`kanishogi`, rules.md §4).
