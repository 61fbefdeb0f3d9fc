//! Address spaces and the rules for converting pointers between them
//! (OpenCL C 3.0 spec 6.7; how pointers are classified at run time:
//! ARCHITECTURE.md section 4).
//!
//! The named spaces `private`, `global`, `local` and `constant` are disjoint.
//! The unnamed generic space contains private, local and global, but not
//! constant. A pointer to space A converts implicitly only to A or to generic;
//! an explicit cast may also go from generic to a named space (except
//! constant); a cast between two different named spaces is illegal.
#![forbid(unsafe_code)]

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    /// Parse a qualifier keyword, with or without the `__` prefix.
    pub fn from_keyword(s: &str) -> Option<AddrSpace> {
        Some(match s.strip_prefix("__").unwrap_or(s) {
            "private" => AddrSpace::Private,
            "global" => AddrSpace::Global,
            "local" => AddrSpace::Local,
            "constant" => AddrSpace::Constant,
            "generic" => AddrSpace::Generic,
            _ => return None,
        })
    }
    /// The qualifier as clang prints it in types (`__global`).
    pub fn keyword(self) -> Option<&'static str> {
        Some(match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        })
    }
    /// The spec's name of the space, for messages.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Local => "local",
            AddrSpace::Constant => "constant",
            AddrSpace::Generic => "generic",
        }
    }
    pub fn is_named(self) -> bool {
        self != AddrSpace::Generic
    }
    /// The generic space contains global, local and private (not constant).
    pub fn in_generic(self) -> bool {
        matches!(
            self,
            AddrSpace::Global | AddrSpace::Local | AddrSpace::Private | AddrSpace::Generic
        )
    }
    /// `clGetKernelArgInfo`'s `CL_KERNEL_ARG_ADDRESS_*` value.
    pub fn cl_kernel_arg_address(self) -> u32 {
        match self {
            AddrSpace::Global => 0x119B,
            AddrSpace::Local => 0x119C,
            AddrSpace::Constant => 0x119D,
            AddrSpace::Private | AddrSpace::Generic => 0x119E,
        }
    }
}

/// Why a pointer conversion between address spaces is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceError {
    /// Between two different named spaces (never allowed).
    Disjoint,
    /// From generic to a named space without a cast.
    NeedsCast,
    /// Constant to/from generic (constant is not part of generic).
    ConstantNotGeneric,
}

impl SpaceError {
    /// The message, in the spec's words.
    pub fn message(self, from: AddrSpace, to: AddrSpace, explicit: bool) -> String {
        match self {
            SpaceError::Disjoint if explicit => format!(
                "casting a pointer to the {} address space to a pointer to the {} address space is illegal: named address spaces are disjoint",
                from.name(),
                to.name()
            ),
            SpaceError::Disjoint => format!(
                "a pointer to the {} address space cannot be converted to a pointer to the {} address space: named address spaces are disjoint",
                from.name(),
                to.name()
            ),
            SpaceError::NeedsCast => format!(
                "it is illegal to convert from a generic pointer to a pointer to the {} address space without a cast",
                to.name()
            ),
            SpaceError::ConstantNotGeneric => format!(
                "a pointer to the constant address space cannot be {} to the generic address space",
                if explicit { "cast" } else { "converted" }
            ),
        }
    }
}

/// May a pointer into `from` become a pointer into `to` implicitly
/// (assignment, argument passing, initialisation)?
pub fn implicit_conversion(from: AddrSpace, to: AddrSpace) -> Result<(), SpaceError> {
    use AddrSpace::*;
    match (from, to) {
        (a, b) if a == b => Ok(()),
        (Constant, Generic) | (Generic, Constant) => Err(SpaceError::ConstantNotGeneric),
        (_, Generic) => Ok(()),
        (Generic, _) => Err(SpaceError::NeedsCast),
        _ => Err(SpaceError::Disjoint),
    }
}

/// May a pointer into `from` be cast explicitly to a pointer into `to`?
pub fn explicit_cast(from: AddrSpace, to: AddrSpace) -> Result<(), SpaceError> {
    use AddrSpace::*;
    match (from, to) {
        (a, b) if a == b => Ok(()),
        (Constant, Generic) | (Generic, Constant) => Err(SpaceError::ConstantNotGeneric),
        (_, Generic) | (Generic, _) => Ok(()),
        _ => Err(SpaceError::Disjoint),
    }
}

#[cfg(test)]
mod tests {
    use super::AddrSpace::*;
    use super::*;

    #[test]
    fn named_spaces_are_disjoint() {
        assert_eq!(
            implicit_conversion(Global, Local),
            Err(SpaceError::Disjoint)
        );
        assert_eq!(explicit_cast(Local, Private), Err(SpaceError::Disjoint));
        assert!(implicit_conversion(Global, Global).is_ok());
    }

    #[test]
    fn generic_rules_follow_the_seed() {
        for s in [Global, Local, Private] {
            assert!(implicit_conversion(s, Generic).is_ok());
            assert_eq!(implicit_conversion(Generic, s), Err(SpaceError::NeedsCast));
            assert!(explicit_cast(Generic, s).is_ok());
        }
        assert_eq!(
            implicit_conversion(Constant, Generic),
            Err(SpaceError::ConstantNotGeneric)
        );
        assert_eq!(
            explicit_cast(Constant, Generic),
            Err(SpaceError::ConstantNotGeneric)
        );
    }
}
