//! Correlation: after every family has emitted, findings and signals joined along a real
//! link (the same command, the same dataflow, the same sentence, or a line that names the
//! script whose code does the act) raise one end, attach the other as a consequence or a
//! related location, and say so in the finding's `confidence_reason`. Nothing here joins
//! two findings because they merely occur in one skill.

pub mod chains;
pub mod flows;
pub mod grants;
pub mod instructions;
