/* a provider name of 64 characters is too long (DTrace's limit is 63) */
pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp:::x
{
}
