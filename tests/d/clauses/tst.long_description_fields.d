/* a provider name and a probe name of 63 characters, the longest DTrace allows */
ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp:::nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn
{
}
