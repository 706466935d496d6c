"""Task data: the prepared-data cache, Kaggle download and zip import, splits, replicas."""
