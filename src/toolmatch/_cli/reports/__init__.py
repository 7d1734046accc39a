"""What ``toolmatch check`` reports, one format a module, all told the same outcomes."""
